package dev.toolsmith.eventing.rest;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PagingTest {

    @Test
    void acceptsEveryPageAnOffsetCanReach() {
        assertThatCode(() -> Paging.check(0, 1, 200)).doesNotThrowAnyException();
        assertThatCode(() -> Paging.check(Integer.MAX_VALUE / 200, 200, 200)).doesNotThrowAnyException();
        assertThatCode(() -> Paging.check(Integer.MAX_VALUE, 1, 200)).doesNotThrowAnyException();
    }

    @Test
    void namesTheParameterThatIsWrong() {
        assertThatThrownBy(() -> Paging.check(-1, 50, 200)).hasMessage("page: -1 is below 0");
        assertThatThrownBy(() -> Paging.check(0, 0, 200)).hasMessage("size: 0 is outside 1..200");
        assertThatThrownBy(() -> Paging.check(0, 201, 200)).hasMessage("size: 201 is outside 1..200");
        assertThatThrownBy(() -> Paging.check(Integer.MAX_VALUE / 200 + 1, 200, 200))
                .hasMessage("page: 10737419 is past the last page a listing can reach with size 200 (10737418)");
    }
}
