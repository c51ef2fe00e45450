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
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The known-verb hot path's two statements, on the reactive pool without a Hibernate session: look a
 * step id up, and write a step that has already run as one autocommitted statement that inserts its
 * finished row and its {@code step-results} outbox event together, or nothing when the step id exists.
 * The relay is woken after the commit, directly when it runs in this instance
 * ({@link Outbox#relayIsLocal()}), else by a {@code pg_notify} in the statement. Concurrent steps share the
 * insert ({@link CoalescedStatements}): under load one statement writes a whole group of steps, with one
 * commit and one relay wake-up. The general flows
 * ({@link StepFlows}) claim first and take a transaction of four statements for the same result; on two
 * cores that was most of a step's cost.
 */
@ApplicationScoped
public class FinishedStepWriter {

    /** Steps per statement at most; groups form only while earlier statements are still running. */
    private static final int MAX_GROUP = 64;
    private static final int STATEMENTS_IN_FLIGHT = 2;

    // One step id per lookup: a lookup of many ids (= ANY($1)) gets a generic plan once prepared, and one
    // made while the table was small scans it whole ever after. Inserts are grouped; lookups need no commit.
    private static final String FIND = "SELECT state, result::text, caller FROM step_execution WHERE step_id = $1";
    // The stored result is the event's payload: each result is serialised once, inside its envelope. A step
    // id twice in one group (REST and Kafka at the same instant) is written once, for its first writer.
    private static final String INSERT = """
            WITH input AS (
                SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::uuid[],
                                     $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::int[])
                    AS i(step_id, plan_id, action_verb, caller, status, event_id, topic, message_key, event_type,
                         envelope, created_at, ord)),
            chosen AS (
                SELECT DISTINCT ON (step_id) *, CAST(envelope AS jsonb) -> 'data' AS result
                FROM input ORDER BY step_id, ord),
            step AS (
                INSERT INTO step_execution (step_id, plan_id, action_verb, caller, state, status, result, outputs,
                                            completed_at)
                SELECT step_id, plan_id, action_verb, caller, 'DONE', status, result,
                       COALESCE(result -> 'outputs', 'null'::jsonb), now()
                FROM chosen
                ON CONFLICT (step_id) DO NOTHING
                RETURNING step_id),
            event AS (
                INSERT INTO outbox_event (id, topic, message_key, event_type, envelope, created_at)
                SELECT c.event_id, c.topic, c.message_key, c.event_type, c.envelope, c.created_at
                FROM chosen c JOIN step s ON s.step_id = c.step_id
                RETURNING id)
            SELECT c.ord, (SELECT pg_notify($13, '') FROM event WHERE $14 LIMIT 1)
            FROM chosen c JOIN step s ON s.step_id = c.step_id""";

    private final Pool pool;
    private final Outbox outbox;
    private final ObjectMapper mapper;
    private final CoalescedStatements<Finished, Boolean> inserts;

    public FinishedStepWriter(Pool pool, Outbox outbox, ContractCodec codec) {
        this.pool = pool;
        this.outbox = outbox;
        this.mapper = codec.mapper();
        this.inserts = new CoalescedStatements<>(this::insertAll, MAX_GROUP, STATEMENTS_IN_FLIGHT);
    }

    /** A step that ran, with its result's event, ready to be written. */
    private record Finished(PlanStep step, StepResult result, OutboxEvent event) {
    }

    /**
     * The step's stored outcome (done or still pending), a conflict when its step id is another caller's, or
     * empty when the step id is new.
     */
    public Uni<Optional<StepOutcome>> existing(PlanStep step) {
        String stepId = step.stepId();
        return pool.preparedQuery(FIND).execute(Tuple.of(stepId)).map(rows -> {
            if (rows.size() == 0) {
                return Optional.empty();
            }
            Row row = rows.iterator().next();
            if (!StoredStep.belongsTo(row.getString(2), step.caller())) {
                return Optional.of(StepOutcome.conflict(step));
            }
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
        return Uni.createFrom().deferred(() -> inserts.submit(
                new Finished(step, result, outbox.prepare(Topics.STEP_RESULTS, result.planId(), result))));
    }

    private Uni<List<Boolean>> insertAll(List<Finished> group) {
        int n = group.size();
        String[] stepIds = new String[n];
        String[] planIds = new String[n];
        String[] verbs = new String[n];
        String[] callers = new String[n];
        String[] statuses = new String[n];
        UUID[] eventIds = new UUID[n];
        String[] topics = new String[n];
        String[] keys = new String[n];
        String[] types = new String[n];
        String[] envelopes = new String[n];
        OffsetDateTime[] createdAt = new OffsetDateTime[n];
        Integer[] ords = new Integer[n];
        for (int i = 0; i < n; i++) {
            Finished f = group.get(i);
            stepIds[i] = f.step().stepId();
            planIds[i] = f.step().planId();
            verbs[i] = f.step().actionVerb();
            callers[i] = f.step().caller();
            statuses[i] = f.result().status().name();
            eventIds[i] = f.event().id;
            topics[i] = f.event().topic;
            keys[i] = f.event().messageKey;
            types[i] = f.event().eventType;
            envelopes[i] = f.event().envelope;
            createdAt[i] = f.event().createdAt;
            ords[i] = i;
        }
        Tuple values = Tuple.tuple().addArrayOfString(stepIds).addArrayOfString(planIds).addArrayOfString(verbs)
                .addArrayOfString(callers).addArrayOfString(statuses).addArrayOfUUID(eventIds).addArrayOfString(topics)
                .addArrayOfString(keys).addArrayOfString(types).addArrayOfString(envelopes)
                .addArrayOfOffsetDateTime(createdAt).addArrayOfInteger(ords).addString(outbox.channel());
        boolean wakeLocally = outbox.relayIsLocal();
        values.addBoolean(!wakeLocally);
        return pool.preparedQuery(INSERT).execute(values).map(rows -> {
            Boolean[] written = new Boolean[n];
            Arrays.fill(written, Boolean.FALSE);
            for (Row row : rows) {
                written[row.getInteger(0)] = Boolean.TRUE;
            }
            if (wakeLocally && rows.size() > 0) {
                outbox.committed();
            }
            return Arrays.asList(written);
        });
    }

    private StepResult read(String stepId, String json) {
        try {
            return mapper.readValue(json, StepResult.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored result of step " + stepId + " is unreadable: " + e.getMessage(), e);
        }
    }
}
