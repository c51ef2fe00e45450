package dev.toolsmith.ui.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {

    /** What the audit trail would be told, in order. */
    private final List<String> recorded = new ArrayList<>();
    private final SignInThrottle.LockoutListener recorder = new SignInThrottle.LockoutListener() {
        @Override
        public void locked(SignInThrottle.Lockout lockout) {
            recorded.add("locked " + lockout.kind() + " " + lockout.key() + " after " + lockout.failures());
        }

        @Override
        public void lifted(String kind, String key, String by) {
            recorded.add("lifted " + kind + " " + key + " by " + by);
        }
    };
    private final MutableClock clock = new MutableClock();
    private final SignInThrottle throttle = new SignInThrottle(Map.of(
            SignInThrottle.Kind.ACCOUNT, new SignInThrottle.Rule(3, Duration.ofSeconds(1), Duration.ofMinutes(1), 10, Duration.ofMinutes(15)),
            SignInThrottle.Kind.ADDRESS, new SignInThrottle.Rule(10, Duration.ofSeconds(1), Duration.ofMinutes(1), 50, Duration.ofMinutes(15))),
            clock, recorder);

    @Test
    void delaysDoubleAfterTheFreeFailuresAndAreCapped() {
        for (int i = 0; i < 3; i++) {
            assertThat(throttle.check("admin", "10.0.0.1")).isEmpty();
            throttle.failed("admin", "10.0.0.1");
        }
        assertThat(throttle.check("admin", "10.0.0.1")).get()
                .satisfies(r -> assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(1)));
        clock.advance(Duration.ofSeconds(1));
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.check("ADMIN", "10.0.0.9")).as("the account counts whatever the case and address").get()
                .satisfies(r -> assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(2)));
        SignInThrottle.Rule rule = new SignInThrottle.Rule(3, Duration.ofSeconds(1), Duration.ofMinutes(1), 10, Duration.ofMinutes(15));
        assertThat(rule.delayAfter(9)).isEqualTo(Duration.ofMinutes(1));
        assertThat(rule.delayAfter(40)).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void anAccountIsLockedOutAfterItsLimitAndForgottenAfterTheLockout() {
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofMinutes(1));
            throttle.failed("viewer", "10.0.0." + i);
        }
        assertThat(throttle.check("viewer", "10.0.0.99")).get().satisfies(r -> {
            assertThat(r.lockedOut()).isTrue();
            assertThat(r.kind()).isEqualTo(SignInThrottle.Kind.ACCOUNT);
            assertThat(r.retryAfterSeconds()).isEqualTo(15 * 60);
        });
        assertThat(throttle.lockouts()).singleElement().satisfies(l -> {
            assertThat(l.kind()).isEqualTo("account");
            assertThat(l.key()).isEqualTo("viewer");
            assertThat(l.failures()).isEqualTo(10);
        });
        assertThat(recorded).as("the lockout is reported once, for the audit log").containsExactly("locked account viewer after 10");
        clock.advance(Duration.ofMinutes(16));
        assertThat(throttle.check("viewer", "10.0.0.99")).isEmpty();
        assertThat(throttle.lockouts()).isEmpty();
        throttle.failed("viewer", "10.0.0.99");
        assertThat(throttle.check("viewer", "10.0.0.99")).as("old failures were forgotten").isEmpty();
    }

    @Test
    void oneAddressGuessingManyAccountsIsLockedOut() {
        for (int i = 0; i < 50; i++) {
            clock.advance(Duration.ofMinutes(1));
            throttle.failed("user" + i, "192.0.2.7");
        }
        assertThat(throttle.check("someone-else", "192.0.2.7")).get().satisfies(r -> {
            assertThat(r.lockedOut()).isTrue();
            assertThat(r.kind()).isEqualTo(SignInThrottle.Kind.ADDRESS);
        });
        assertThat(throttle.check("someone-else", "192.0.2.8")).isEmpty();
        assertThat(throttle.lift(SignInThrottle.Kind.ADDRESS, "192.0.2.7", "admin")).isTrue();
        assertThat(throttle.check("someone-else", "192.0.2.7")).isEmpty();
    }

    @Test
    void aSuccessClearsTheAccountButNotTheAddress() {
        for (int i = 0; i < 12; i++) {
            clock.advance(Duration.ofMinutes(2));
            throttle.failed("admin", "10.0.0.1");
        }
        throttle.lift(SignInThrottle.Kind.ACCOUNT, "admin", "test");
        throttle.succeeded("admin");
        clock.advance(Duration.ofSeconds(1));
        assertThat(throttle.check("admin", "10.0.0.1")).get()
                .satisfies(r -> assertThat(r.kind()).isEqualTo(SignInThrottle.Kind.ADDRESS));
    }

    @Test
    void liftingALockoutIsReportedWithTheAdmin() {
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofMinutes(1));
            throttle.failed("Viewer", "10.0.0." + i);
        }
        assertThat(throttle.lift(SignInThrottle.Kind.ACCOUNT, "VIEWER", "alice")).isTrue();
        assertThat(throttle.lift(SignInThrottle.Kind.ACCOUNT, "viewer", "alice")).as("nothing left to lift").isFalse();
        assertThat(recorded).containsExactly("locked account viewer after 10", "lifted account viewer by alice");
    }

    @Test
    void aLoggedUserNameCannotForgeALine() {
        assertThat(LogSafe.of("a\nb\u001B")).isEqualTo("a\\u000Ab\\u001B");
    }

    @Test
    void aSessionOfAnEarlierPasswordIsNotTheSamePassword() {
        ConfiguredUser before = new ConfiguredUser("admin", "$2a$10$l3Pr8gp78mJ9O1FI6jEsCutCjiF2MvX5eTWRaUeKZvklHZXe1v1cW", UiRole.ADMIN);
        ConfiguredUser after = new ConfiguredUser("admin", "$2a$10$PN3PDh.3R446.tTjGaq5oeiSVKdJmMFTb6H5aV5cPo63hQ1t6FwtS", UiRole.ADMIN);
        PasswordSession session = PasswordSession.decode(PasswordSession.start(before).encode()).orElseThrow();
        assertThat(session.samePassword(before)).isTrue();
        assertThat(session.samePassword(after)).isFalse();
        assertThat(PasswordSession.decode("admin")).isEmpty();
        assertThat(PasswordSession.decode("oidc:admin:carol")).isEmpty();
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
