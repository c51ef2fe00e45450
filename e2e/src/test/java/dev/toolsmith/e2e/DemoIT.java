package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.e2e.demo.Demo;
import dev.toolsmith.e2e.demo.FxRatesApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The demo's whole flow, asserted: airlock source → scan → approval with a policy → the engineer's
 * verified build → a novel verb over Kafka substituted by search → the learned alias → an unservable step
 * and its capability gap. {@link Demo#run} throws naming the first stage that did not happen.
 */
@ExtendWith(Platform.class)
class DemoIT {

    @Test
    void everyStageOfTheDemoHappens() {
        try (FxRatesApi api = new FxRatesApi()) {
            new Demo(Platform.kafka(), Platform.librarian(), Platform.capabilities(), Platform.get().adminKey(), "planner")
                    .run(api);
            assertThat(api.conversions()).as("both substituted steps really called the API").isEqualTo(2);
        }
    }
}
