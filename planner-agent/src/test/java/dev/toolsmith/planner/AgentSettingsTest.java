package dev.toolsmith.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentSettingsTest {

    private static final Map<String, String> COMPLETE = Map.of("TOOLSMITH_LLM_BASE_URL", "http://127.0.0.1:1/v1",
            "TOOLSMITH_LLM_MODEL", "some-model", "TOOLSMITH_LLM_API_KEY", "llm-secret", "PLANNER_API_KEY", "planner-secret");

    @Test
    void aMissingSettingIsNamedAndTheMcpUrlDefaultsToTheLocalCapabilitiesManager() {
        assertThat(AgentSettings.fromEnvironment(COMPLETE).mcpUrl()).isEqualTo("http://127.0.0.1:8082/mcp");
        for (String name : new String[] {"TOOLSMITH_LLM_BASE_URL", "TOOLSMITH_LLM_MODEL", "PLANNER_API_KEY"}) {
            Map<String, String> without = new java.util.HashMap<>(COMPLETE);
            without.remove(name);
            assertThatThrownBy(() -> AgentSettings.fromEnvironment(without))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(name + " is not set");
        }
    }

    @Test
    void theSettingsNeverPrintTheirKeys() {
        assertThat(AgentSettings.fromEnvironment(COMPLETE).toString()).doesNotContain("llm-secret", "planner-secret")
                .contains("some-model");
    }
}
