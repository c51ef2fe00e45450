package dev.toolsmith.engineer.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.config.EngineerConfig;
import dev.toolsmith.engineer.wrapper.GeneratedWrapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * LLM help while generating a wrapper (off unless {@code toolsmith.engineer.llm-help} and the LLM are
 * configured): asks for a better description and a verb ({@link WrapperAdviceService}), checks the answer
 * ({@link WrapperAdvice#checked}), replaces the description and adds a different verb as a search tag. The
 * verb itself is what the admin approved and stays. Any failure keeps the generated plugin as it was and says why in the build's notes;
 * the plugin then goes through the same verification as any other.
 */
@ApplicationScoped
public class WrapperAdvisor {

    static final String NOTE = "LLM help: ";
    /** The tool-manifest contract's limit. */
    private static final int MAX_TAGS = 50;
    private static final Logger LOG = Logger.getLogger(WrapperAdvisor.class);

    private final LlmClient llm;
    private final WrapperAdviceService service;
    private final EngineerConfig config;
    private final ObjectMapper mapper;

    public WrapperAdvisor(LlmClient llm, WrapperAdviceService service, EngineerConfig config, ContractCodec codec) {
        this.llm = llm;
        this.service = service;
        this.config = config;
        this.mapper = codec.mapper();
    }

    public boolean enabled() {
        return config.llmHelp() && llm.available();
    }

    /**
     * The wrapper with the LLM's description (and its verb as a search tag) when its answer passes
     * validation; unchanged when help is off. Never fails the build: any problem keeps the wrapper as it
     * was, with a note saying why.
     */
    public GeneratedWrapper help(ToolApproved approved, GeneratedWrapper wrapper) {
        if (!enabled()) {
            return wrapper;
        }
        ToolManifest plugin = wrapper.plugin();
        List<String> notes = new ArrayList<>(wrapper.notes());
        try {
            String operation = prompt(approved, plugin);
            WrapperAdvice advice = llm.ask(() -> service.advise(operation)).checked(allowedHosts(approved, plugin));
            ToolManifest improved = apply(plugin, advice, notes);
            return new GeneratedWrapper(improved, wrapper.policy(), notes);
        } catch (LlmUnavailableException | RejectedAnswerException e) {
            return kept(wrapper, plugin, notes, e.getMessage());
        } catch (RuntimeException e) {
            return kept(wrapper, plugin, notes, "failed unexpectedly: " + e);
        }
    }

    private GeneratedWrapper kept(GeneratedWrapper wrapper, ToolManifest plugin, List<String> notes, String why) {
        LOG.infof("LLM help for %s not used: %s", plugin.id(), why);
        notes.add(NOTE + "not used, the original description is kept: " + why);
        return new GeneratedWrapper(plugin, wrapper.policy(), notes);
    }

    /**
     * The description replaces the generated one. The verb is what the admin approved and what planners
     * call, so a different suggestion is only added as a search tag (the catalog indexes tags), never
     * applied as the verb.
     */
    private ToolManifest apply(ToolManifest plugin, WrapperAdvice advice, List<String> notes) {
        String description = plugin.description();
        if (advice.description().equals(description)) {
            notes.add(NOTE + "used; the description is unchanged");
        } else {
            notes.add(NOTE + "used; the description was replaced (was: \"" + description + "\")");
            description = advice.description();
        }
        List<String> tags = new ArrayList<>(plugin.tags());
        if (advice.verb().equals(plugin.verb())) {
            notes.add(NOTE + "the suggested verb is the approved one, " + plugin.verb());
        } else if (tags.contains(advice.verb()) || tags.size() >= MAX_TAGS) {
            notes.add(NOTE + "suggested verb " + advice.verb() + " not added as a tag (already there, or the tags are"
                    + " full); the approved verb " + plugin.verb() + " stays");
        } else {
            tags.add(advice.verb());
            notes.add(NOTE + "suggested verb " + advice.verb() + " added as a search tag; the approved verb "
                    + plugin.verb() + " stays (an admin may rename it)");
        }
        if (description.equals(plugin.description()) && tags.equals(plugin.tags())) {
            return plugin;
        }
        ToolManifest changed = new ToolManifest(plugin.id(), plugin.verb(), plugin.name(), description, plugin.source(),
                plugin.namespace(), plugin.domain(), tags, plugin.inputSchema(), plugin.outputSchema(),
                plugin.risk(), plugin.binding(), plugin.healthProbe(), plugin.version(), null);
        return changed.withVersion(plugin.version(), ContentHash.of(changed, mapper));
    }

    /** The hosts of the approved spec's servers: the binding's, the probe's, and any the operation lists. */
    static Set<String> allowedHosts(ToolApproved approved, ToolManifest plugin) {
        Set<String> hosts = new HashSet<>();
        addHost(hosts, plugin.binding());
        if (plugin.healthProbe() != null) {
            addHost(hosts, plugin.healthProbe().binding());
        }
        JsonNode operation = approved.operation();
        if (operation != null) {
            operation.path("servers").forEach(server -> {
                String host = ForeignHosts.hostOf(server.path("url").asText(""));
                if (host != null) {
                    hosts.add(host);
                }
            });
        }
        return hosts;
    }

    private static void addHost(Set<String> hosts, HttpBinding binding) {
        if (binding != null && binding.serverUrl() != null) {
            String host = ForeignHosts.hostOf(binding.serverUrl());
            if (host != null) {
                hosts.add(host);
            }
        }
    }

    private static String prompt(ToolApproved approved, ToolManifest plugin) {
        StringBuilder prompt = new StringBuilder();
        prompt.append("Verb: ").append(plugin.verb()).append('\n');
        prompt.append("Name: ").append(plugin.name()).append('\n');
        prompt.append("Current description: ").append(plugin.description()).append('\n');
        prompt.append("Operation: ").append(plugin.binding().method()).append(' ').append(plugin.binding().serverUrl())
                .append(plugin.binding().pathTemplate()).append('\n');
        prompt.append("Input schema: ").append(abbreviate(String.valueOf(plugin.inputSchema()))).append('\n');
        prompt.append("Output schema: ").append(abbreviate(String.valueOf(plugin.outputSchema()))).append('\n');
        JsonNode operation = approved.operation();
        if (operation != null) {
            for (String field : List.of("summary", "description")) {
                if (operation.path(field).isTextual()) {
                    prompt.append("Spec ").append(field).append(": ").append(abbreviate(operation.get(field).asText()))
                            .append('\n');
                }
            }
        }
        return prompt.toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 2000 ? text : text.substring(0, 2000) + "…";
    }
}
