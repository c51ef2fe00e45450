package dev.toolsmith.capabilities.registry;

import dev.toolsmith.contracts.tool.VerbNormalizer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Learned verb aliases: the {@code verb_alias} table, and an in-memory copy the hot path reads so a
 * learned verb costs no extra query. Updated after each local commit and re-read on a schedule.
 */
@ApplicationScoped
public class AliasBook {

    private volatile Map<String, Alias> byVerb = new ConcurrentHashMap<>();

    public Optional<Alias> find(String verb) {
        return Optional.ofNullable(byVerb.get(VerbNormalizer.normalize(verb)));
    }

    /** Inside the caller's transaction; call {@link #remember} once it committed. */
    public Uni<Void> learn(Alias alias) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "INSERT INTO verb_alias (verb, tool_id, target_verb, confidence, learned_from) "
                        + "VALUES (:verb, :tool, :target, :confidence, :step) ON CONFLICT (verb) DO UPDATE SET "
                        + "tool_id = EXCLUDED.tool_id, target_verb = EXCLUDED.target_verb, "
                        + "confidence = EXCLUDED.confidence, learned_from = EXCLUDED.learned_from, learned_at = now()")
                .setParameter("verb", alias.verb())
                .setParameter("tool", alias.toolId())
                .setParameter("target", alias.targetVerb())
                .setParameter("confidence", alias.confidence())
                .setParameter("step", alias.learnedFrom())
                .executeUpdate())
                .replaceWithVoid();
    }

    public void remember(Alias alias) {
        byVerb.put(alias.verb(), alias);
    }

    public Uni<List<Alias>> list() {
        return Panache.withSession(() -> Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT verb, tool_id, target_verb, confidence, learned_from, learned_at FROM verb_alias ORDER BY verb",
                Object[].class).getResultList()))
                .map(rows -> rows.stream().map(AliasBook::toAlias).toList());
    }

    /** Forgets a learned verb (given in any form); false when it was not known. */
    public Uni<Boolean> forget(String verb) {
        String normalized = VerbNormalizer.normalize(verb);
        return Panache.withTransaction(() -> Panache.getSession().chain(session -> session
                .createNativeQuery("DELETE FROM verb_alias WHERE verb = :verb")
                .setParameter("verb", normalized)
                .executeUpdate()))
                .invoke(() -> byVerb.remove(normalized))
                .map(deleted -> deleted > 0);
    }

    public Uni<Void> refresh() {
        return list().invoke(aliases -> byVerb = new ConcurrentHashMap<>(aliases.stream()
                .collect(Collectors.toMap(Alias::verb, Function.identity())))).replaceWithVoid();
    }

    private static Alias toAlias(Object[] row) {
        Object learnedAt = row[5];
        Instant at = learnedAt instanceof OffsetDateTime odt ? odt.toInstant()
                : learnedAt instanceof Instant instant ? instant : null;
        return new Alias((String) row[0], (String) row[1], (String) row[2], ((Number) row[3]).doubleValue(),
                (String) row[4], at);
    }
}
