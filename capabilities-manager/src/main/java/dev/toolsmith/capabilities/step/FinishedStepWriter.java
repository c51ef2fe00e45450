package dev.toolsmith.capabilities.step;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.eventing.OutboxEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * The known-verb hot path's two statements, on the reactive pool without a Hibernate session: look a
 * step id up, and write a step that has already run as one autocommitted statement that inserts its
 * finished row, its {@code step-results} outbox event and the relay's wake-up together, or nothing when
 * the step id exists. The general flows ({@link StepFlows}) claim first and take a transaction of four
 * statements for the same result; on two cores that was most of a step's cost.
 */
@ApplicationScoped
public class FinishedStepWriter {

    private static final String FIND = "SELECT state, result::text FROM step_execution WHERE step_id = $1";
    // The stored result is the event's payload: the result is serialised once, inside its envelope ($10).
    private static final String INSERT = """
            WITH event_json AS (SELECT CAST(CAST($10 AS text) AS jsonb) -> 'data' AS result),
            step AS (
                INSERT INTO step_execution (step_id, plan_id, action_verb, caller, state, status, result, outputs,
                                            completed_at)
                SELECT $1, $2, $3, $4, 'DONE', $5, result, COALESCE(result -> 'outputs', 'null'::jsonb), now()
                FROM event_json
                ON CONFLICT (step_id) DO NOTHING
                RETURNING step_id),
            event AS (
                INSERT INTO outbox_event (id, topic, message_key, event_type, envelope, created_at)
                SELECT $6, $7, $8, $9, $10, $11 FROM step
                RETURNING id)
            SELECT pg_notify($12, '') FROM event""";

    private final Pool pool;
    private final Outbox outbox;
    private final ObjectMapper mapper;

    public FinishedStepWriter(Pool pool, Outbox outbox, ContractCodec codec) {
        this.pool = pool;
        this.outbox = outbox;
        this.mapper = codec.mapper();
    }

    /** The step's stored outcome (done or still pending), or empty when the step id is new. */
    public Uni<Optional<StepOutcome>> existing(String stepId) {
        return pool.preparedQuery(FIND).execute(Tuple.of(stepId)).map(rows -> {
            if (rows.size() == 0) {
                return Optional.empty();
            }
            Row row = rows.iterator().next();
            String result = row.getString(1);
            return Optional.of("DONE".equals(row.getString(0)) && result != null ? StepOutcome.stored(read(stepId, result))
                    : StepOutcome.pending());
        });
    }

    /**
     * Writes the finished step and announces its result; false when the step id already had a row (then
     * nothing was written or announced). Call it on the step's context: the event carries its trace.
     */
    public Uni<Boolean> insert(PlanStep step, StepResult result) {
        OutboxEvent event = outbox.prepare(Topics.STEP_RESULTS, result.planId(), result);
        Tuple values = Tuple.tuple()
                .addString(step.stepId()).addString(step.planId()).addString(step.actionVerb()).addString(step.caller())
                .addString(result.status().name())
                .addUUID(event.id).addString(event.topic).addString(event.messageKey).addString(event.eventType)
                .addString(event.envelope).addOffsetDateTime(event.createdAt)
                .addString(outbox.channel());
        return pool.preparedQuery(INSERT).execute(values).map(rows -> rows.size() == 1);
    }

    private StepResult read(String stepId, String json) {
        try {
            return mapper.readValue(json, StepResult.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored result of step " + stepId + " is unreadable: " + e.getMessage(), e);
        }
    }
}
