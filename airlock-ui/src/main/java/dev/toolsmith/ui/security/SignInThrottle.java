package dev.toolsmith.ui.security;

import dev.toolsmith.ui.config.UiConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Slows down password guessing, per account and per client address. After a few free failures each further
 * attempt must wait a delay that doubles with every failure (refused with 429 and Retry-After until then,
 * without checking the password); after more failures the account or address is locked out for a while.
 * Failures older than the lockout period are forgotten; a successful sign-in clears its account's failures
 * (not its address's, or one valid account would reset an address guessing at others). Lockouts are logged
 * (the audit) and listed for admins ({@code GET /api/session/lockouts}), who may lift them.
 *
 * <p>Kept in this replica's memory: with several UI replicas each counts what it sees, so a guesser spread
 * over N replicas gets up to N times the attempts (docs/airlock-ui.md).
 */
@ApplicationScoped
public class SignInThrottle {

    private static final Logger LOG = Logger.getLogger(SignInThrottle.class);
    /** Bounds the memory a guesser inventing user names can take; idle entries are dropped first. */
    static final int MAX_TRACKED = 10_000;

    public enum Kind {
        ACCOUNT, ADDRESS;

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The rule for one kind of key. */
    public record Rule(int freeFailures, Duration firstDelay, Duration maxDelay, int lockoutAfter, Duration lockout) {
        Duration delayAfter(int failures) {
            if (failures < freeFailures) {
                return Duration.ZERO;
            }
            int doublings = Math.min(failures - freeFailures, 30);
            Duration delay = firstDelay.multipliedBy(1L << doublings);
            return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
        }
    }

    /** Why an attempt is refused before its password is checked, and when to try again. */
    public record Refusal(Kind kind, boolean lockedOut, Duration retryAfter) {
        public long retryAfterSeconds() {
            return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
        }
    }

    /** A current lockout, as admins see it. */
    public record Lockout(String kind, String key, int failures, Instant lockedUntil) {
    }

    /** Hears of every lockout and every lifting, to keep a record beyond this replica's memory. */
    public interface LockoutListener {
        void locked(Lockout lockout);

        void lifted(String kind, String key, String by);
    }

    private static final class Failures {
        int count;
        Instant last;
        Instant lockedUntil;
    }

    private record Key(Kind kind, String value) {
    }

    private final Map<Kind, Rule> rules;
    private final Clock clock;
    private final LockoutListener listener;
    private final Map<Key, Failures> failures = new ConcurrentHashMap<>();

    @Inject
    SignInThrottle(UiConfig config, SignInAuditTrail auditTrail) {
        this(Map.of(
                Kind.ACCOUNT, new Rule(config.signIn().accountFreeFailures(), config.signIn().accountFirstDelay(),
                        config.signIn().accountMaxDelay(), config.signIn().accountLockoutAfter(),
                        config.signIn().accountLockout()),
                Kind.ADDRESS, new Rule(config.signIn().addressFreeFailures(), config.signIn().addressFirstDelay(),
                        config.signIn().addressMaxDelay(), config.signIn().addressLockoutAfter(),
                        config.signIn().addressLockout())),
                Clock.systemUTC(), auditTrail);
    }

    SignInThrottle(Map<Kind, Rule> rules, Clock clock, LockoutListener listener) {
        this.rules = Map.copyOf(rules);
        this.clock = clock;
        this.listener = listener;
    }

    /** Whether an attempt for {@code account} from {@code address} may have its password checked now. */
    public Optional<Refusal> check(String account, String address) {
        Instant now = clock.instant();
        for (Key key : keys(account, address)) {
            Failures seen = failures.get(key);
            if (seen == null) {
                continue;
            }
            synchronized (seen) {
                if (seen.lockedUntil != null && now.isBefore(seen.lockedUntil)) {
                    return Optional.of(new Refusal(key.kind(), true, Duration.between(now, seen.lockedUntil)));
                }
                if (forgotten(key, seen, now)) {
                    continue;
                }
                Instant allowed = seen.last.plus(rules.get(key.kind()).delayAfter(seen.count));
                if (now.isBefore(allowed)) {
                    return Optional.of(new Refusal(key.kind(), false, Duration.between(now, allowed)));
                }
            }
        }
        return Optional.empty();
    }

    public void failed(String account, String address) {
        Instant now = clock.instant();
        makeRoom();
        for (Key key : keys(account, address)) {
            Lockout lockout = null;
            Failures seen = failures.computeIfAbsent(key, k -> new Failures());
            synchronized (seen) {
                if (seen.last != null && forgotten(key, seen, now)) {
                    seen.count = 0;
                    seen.lockedUntil = null;
                }
                seen.count++;
                seen.last = now;
                Rule rule = rules.get(key.kind());
                if (seen.count >= rule.lockoutAfter() && (seen.lockedUntil == null || !now.isBefore(seen.lockedUntil))) {
                    seen.lockedUntil = now.plus(rule.lockout());
                    LOG.warnf("sign-in lockout: %s %s locked until %s after %d failed sign-ins (last from %s)",
                            key.kind().wireName(), key.value(), seen.lockedUntil, seen.count, LogSafe.of(address));
                    lockout = new Lockout(key.kind().wireName(), key.value(), seen.count, seen.lockedUntil);
                }
            }
            if (lockout != null) {
                listener.locked(lockout); // outside the lock: the listener may be slow
            }
        }
    }

    public void succeeded(String account) {
        failures.remove(new Key(Kind.ACCOUNT, accountKey(account)));
    }

    /** The lockouts in force now, the latest ending last. */
    public List<Lockout> lockouts() {
        Instant now = clock.instant();
        return failures.entrySet().stream()
                .filter(e -> e.getValue().lockedUntil != null && now.isBefore(e.getValue().lockedUntil))
                .map(e -> new Lockout(e.getKey().kind().wireName(), e.getKey().value(), e.getValue().count,
                        e.getValue().lockedUntil))
                .sorted(Comparator.comparing(Lockout::lockedUntil))
                .toList();
    }

    /** Lifts a lockout and forgets its failures (an admin's decision); false if there was none. */
    public boolean lift(Kind kind, String key, String by) {
        String value = kind == Kind.ACCOUNT ? accountKey(key) : key;
        Failures removed = failures.remove(new Key(kind, value));
        if (removed != null) {
            LOG.warnf("sign-in lockout lifted: %s %s by %s", kind.wireName(), LogSafe.of(value), by);
            listener.lifted(kind.wireName(), value, by);
        }
        return removed != null;
    }

    private boolean forgotten(Key key, Failures seen, Instant now) {
        return seen.last.plus(rules.get(key.kind()).lockout()).isBefore(now)
                && (seen.lockedUntil == null || !now.isBefore(seen.lockedUntil));
    }

    private void makeRoom() {
        if (failures.size() < MAX_TRACKED) {
            return;
        }
        Instant now = clock.instant();
        failures.entrySet().removeIf(e -> forgotten(e.getKey(), e.getValue(), now));
        if (failures.size() >= MAX_TRACKED) {
            failures.entrySet().stream().filter(e -> e.getValue().lockedUntil == null)
                    .min(Comparator.comparing(e -> e.getValue().last))
                    .ifPresent(oldest -> failures.remove(oldest.getKey()));
        }
    }

    private static List<Key> keys(String account, String address) {
        return List.of(new Key(Kind.ACCOUNT, accountKey(account)), new Key(Kind.ADDRESS, address));
    }

    /** User names are case-sensitive, but guessing "Admin" must count against "admin" too. */
    private static String accountKey(String account) {
        return LogSafe.of(account).toLowerCase(Locale.ROOT);
    }
}
