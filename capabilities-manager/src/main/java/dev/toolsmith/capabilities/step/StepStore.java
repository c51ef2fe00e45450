package dev.toolsmith.capabilities.step;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The {@code step_execution} table. Every method runs in the caller's session/transaction, so a claim,
 * the result and the outbox event of one step commit or roll back together.
 */
@ApplicationScoped
public class StepStore {

    /** What {@link #toStored} reads, in its order. */
    private static final String COLUMNS = "step_id, plan_id, action_verb, state, result::text, caller";

    private final ObjectMapper mapper;

    public StepStore(ContractCodec codec) {
        this.mapper = codec.mapper();
    }

    /**
     * Claims the step id. False when a row already exists (done or in progress). A concurrent claim of
     * the same id waits for the first transaction and then sees its row, so only one claim ever wins.
     */
    public Uni<Boolean> claim(PlanStep step) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "INSERT INTO step_execution (step_id, plan_id, action_verb, caller, state) "
                        + "VALUES (:id, :plan, :verb, :caller, 'IN_PROGRESS') ON CONFLICT (step_id) DO NOTHING")
                .setParameter("id", step.stepId())
                .setParameter("plan", step.planId())
                .setParameter("verb", step.actionVerb())
                .setParameter("caller", step.caller())
                .executeUpdate())
                .map(inserted -> inserted == 1);
    }

    /** Records the result of a claimed step; false when it was no longer in progress (finished elsewhere). */
    public Uni<Boolean> complete(StepResult result) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "UPDATE step_execution SET state = 'DONE', status = :status, result = CAST(CAST(:result AS text) AS jsonb), "
                        + "outputs = CAST(CAST(:outputs AS text) AS jsonb), completed_at = now() "
                        + "WHERE step_id = :id AND state = 'IN_PROGRESS'")
                .setParameter("status", result.status().name())
                .setParameter("result", json(result))
                .setParameter("outputs", json(result.outputs()))
                .setParameter("id", result.stepId())
                .executeUpdate())
                .map(updated -> updated == 1);
    }

    /** The step with this id, whoever owns it: callers filter by {@link StoredStep#ownedBy} or a {@link StepReader}. */
    public Uni<Optional<StoredStep>> find(String stepId) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT " + COLUMNS + " FROM step_execution WHERE step_id = :id", Object[].class)
                .setParameter("id", stepId)
                .getResultList())
                .map(rows -> rows.stream().findFirst().map(this::toStored));
    }

    /** The steps of a plan that {@code reader} may see, in claim order. */
    public Uni<List<StoredStep>> byPlan(String planId, StepReader reader, int limit) {
        return Panache.getSession().chain(session -> {
            var query = session.createNativeQuery("SELECT " + COLUMNS + " FROM step_execution WHERE plan_id = :plan "
                    + (reader.seesAll() ? "" : "AND caller = :caller ") + "ORDER BY claimed_at, step_id LIMIT :limit",
                    Object[].class)
                    .setParameter("plan", planId)
                    .setParameter("limit", limit);
            if (!reader.seesAll()) {
                query.setParameter("caller", reader.caller());
            }
            return query.getResultList();
        }).map(rows -> rows.stream().map(this::toStored).toList());
    }

    /**
     * The status and outputs of an earlier step of the same plan and the same caller, if it exists there: a
     * step never reads another caller's outputs, whatever plan id it names.
     */
    public Uni<Optional<SourceStep>> source(String planId, String stepId, String caller) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT state, status, outputs::text FROM step_execution WHERE step_id = :id AND plan_id = :plan "
                        + "AND caller = :caller",
                Object[].class)
                .setParameter("id", stepId)
                .setParameter("plan", planId)
                .setParameter("caller", caller)
                .getResultList())
                .map(rows -> rows.stream().findFirst().map(row -> new SourceStep("DONE".equals(row[0]),
                        (String) row[1], row[2] == null ? null : tree((String) row[2]))));
    }

    /** Steps claimed longer ago than {@code age} and still unfinished. */
    public Uni<List<StoredStep>> abandoned(Duration age, int limit) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT " + COLUMNS + " FROM step_execution "
                        + "WHERE state = 'IN_PROGRESS' AND claimed_at < now() - make_interval(secs => :secs) "
                        + "ORDER BY claimed_at LIMIT :limit",
                Object[].class)
                .setParameter("secs", (double) age.toSeconds())
                .setParameter("limit", limit)
                .getResultList())
                .map(rows -> rows.stream().map(this::toStored).toList());
    }

    /** The source of a reference: {@code outputs} is null until it is done. */
    public record SourceStep(boolean done, String status, JsonNode outputs) {
    }

    private StoredStep toStored(Object[] row) {
        StepResult result = null;
        if (row[4] != null) {
            try {
                result = mapper.readValue((String) row[4], StepResult.class);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("stored result of step " + row[0] + " is unreadable: " + e.getMessage(), e);
            }
        }
        return new StoredStep((String) row[0], (String) row[1], (String) row[2], (String) row[5], "DONE".equals(row[3]),
                result);
    }

    private JsonNode tree(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored outputs are unreadable: " + e.getMessage(), e);
        }
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result is always serialisable", e);
        }
    }
}
