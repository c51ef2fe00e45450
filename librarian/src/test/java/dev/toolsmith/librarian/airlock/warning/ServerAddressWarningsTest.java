package dev.toolsmith.librarian.airlock.warning;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which server URLs the review screen warns about, judged from the URL alone. */
class ServerAddressWarningsTest {

    @ParameterizedTest
    @ValueSource(strings = {"http://169.254.169.254/latest", "http://2852039166", "http://0xA9FEA9FE/",
            "http://[::ffff:a9fe:a9fe]/", "http://[fe80::1]:8080", "http://metadata.google.internal/computeMetadata/v1",
            "http://169.254.170.2/v2/credentials"})
    void metadataServersAreFlaggedAsUnrunnable(String url) {
        assertThat(ServerAddressWarnings.forUrl(url)).as(url).hasValueSatisfying(w -> {
            assertThat(w.code()).isEqualTo(ServerAddressWarnings.METADATA_SERVER);
            assertThat(w.url()).isEqualTo(url);
            assertThat(w.message()).contains("link-local/cloud metadata", "cannot run");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/api", "http://localhost:9000", "https://10.1.2.3/v1",
            "http://192.168.0.10", "http://[::1]:8080", "http://[fd12::1]/", "http://0x7f000001/",
            "http://billing.internal/v1", "http://printer.local", "http://intranet/api", "http://100.64.0.7"})
    void privateAndLoopbackServersAreFlagged(String url) {
        assertThat(ServerAddressWarnings.forUrl(url)).as(url).hasValueSatisfying(w -> {
            assertThat(w.code()).isEqualTo(ServerAddressWarnings.PRIVATE_SERVER);
            assertThat(w.message()).contains(url, "network Toolsmith runs in");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://api.example.com/v1", "https://8.8.8.8", "http://[2606:4700::1111]/",
            "https://metadata.example.com/"})
    void publicServersAreNot(String url) {
        assertThat(ServerAddressWarnings.forUrl(url)).as(url).isEmpty();
    }

    @Test
    void theBindingsAndTheHealthProbesServersAreBothLookedAt() throws Exception {
        var manifest = new ObjectMapper().readTree("""
                {"binding": {"serverUrl": "https://api.example.com"},
                 "healthProbe": {"binding": {"serverUrl": "http://169.254.169.254"}}}""");

        assertThat(ServerAddressWarnings.of(manifest)).extracting(ServerWarning::code)
                .containsExactly(ServerAddressWarnings.METADATA_SERVER);
        assertThat(ServerAddressWarnings.of(null)).isEmpty();
    }

    @Test
    void theLoopbackMessageNamesTheAddress() {
        assertThat(ServerAddressWarnings.forUrl("http://127.0.0.1:8080/api")).get().extracting(ServerWarning::message)
                .isEqualTo("The server URL http://127.0.0.1:8080/api is on a loopback address (127.0.0.1): calls would "
                        + "go into the network Toolsmith runs in, not to the internet. They are refused unless private "
                        + "networks are allowed (local use); approve only if you expect this API there.");
    }
}
