package dev.toolsmith.planner;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.tool.ToolExecution;
import dev.toolsmith.planner.kafka.KafkaPlannerAgent;
import dev.toolsmith.planner.kafka.KafkaSettings;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code ./toolsmith agent mcp|kafka "goal"}: the reference planner agent from the command line, its settings from the
 * environment (docs/mcp.md, "Reference planner agent"). Prints what it does, then its answer; exits 2 for a usage or
 * settings mistake, 1 when the goal could not be run through.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length < 2 || !(args[0].equals("mcp") || args[0].equals("kafka")) || args[1].isBlank()) {
            System.err.println("usage: agent mcp|kafka \"<goal in plain language>\" (settings: docs/mcp.md)");
            System.exit(2);
        }
        String goal = String.join(" ", Arrays.copyOfRange(args, 1, args.length));
        Map<String, String> env = System.getenv();
        try {
            AgentSettings settings = AgentSettings.fromEnvironment(env);
            System.out.println(args[0] + " mode, " + settings);
            System.out.println(args[0].equals("mcp") ? runOverMcp(settings, goal) : runOverKafka(settings, env, goal));
            System.exit(0);
        } catch (IllegalArgumentException e) {
            System.err.println("agent: " + e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("agent: the goal was not reached: " + e.getMessage());
            System.exit(1);
        }
    }

    static String runOverMcp(AgentSettings settings, String goal) throws Exception {
        try (PlannerAgent agent = new PlannerAgent(settings)) {
            PlannerAgent.Outcome outcome = agent.achieve(goal);
            for (ToolExecution call : outcome.calls()) {
                System.out.println("> " + call.request().name() + " " + call.request().arguments());
                System.out.println("< " + call.result());
            }
            return outcome.answer();
        }
    }

    static String runOverKafka(AgentSettings settings, Map<String, String> env, String goal) {
        ChatModel model = PlannerAgent.chatModel(settings);
        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(model, KafkaSettings.fromEnvironment(env),
                line -> System.out.println("  " + line))) {
            return agent.achieve(goal).answer();
        }
    }
}
