package dev.toolsmith.librarian.airlock.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.rest.ClientErrorMappers;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/**
 * Directory sources are off unless enabled. The Quarkus tests run with them on (they scan one), so the
 * refusal is checked here, without a Quarkus start, down to the 400 the REST edge answers with.
 */
class SourceTypesTest {

    @Test
    void aDirectoryIsRefusedWhileDirectoriesAreOffSayingWhichSettingTurnsThemOn() {
        IllegalArgumentException refused = catchThrowableOfType(IllegalArgumentException.class,
                () -> new SourceTypes(false).accept("directory"));

        assertThat(refused).hasMessage("type: directory sources are off on this installation"
                + " (toolsmith.airlock.directory.enabled)");
        Response response = new ClientErrorMappers().illegalArgument(refused);
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(((ApiError) response.getEntity()).error()).contains("directory sources are off");
    }

    @Test
    void aDirectoryIsAcceptedOnceEnabledAndTheOtherTypesEitherWay() {
        assertThat(new SourceTypes(true).accept("Directory")).isEqualTo("directory");
        for (boolean directoryEnabled : new boolean[] {false, true}) {
            SourceTypes types = new SourceTypes(directoryEnabled);
            assertThat(types.accept("OpenAPI")).isEqualTo("openapi");
            assertThat(types.accept("git")).isEqualTo("git");
            assertThat(types.accept("marketplace")).isEqualTo("marketplace");
        }
    }

    @Test
    void anUnknownTypeIsRefusedListingTheKnownOnes() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> new SourceTypes(true).accept("ftp")))
                .hasMessage("type: 'ftp' is not one of openapi, git, marketplace, directory");
    }
}
