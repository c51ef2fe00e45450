package dev.toolsmith.engineer.gaps;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The LLM as a typed service for capability-gap drafts: stateless (no chat memory), application-scoped (the
 * draft worker has no request context). The library appends the format instruction built from
 * {@link DraftAnswer} to the user message and reads the answer (also inside a Markdown fence or a sentence)
 * into the record. Call it only through {@code LlmClient.ask}. Both messages are Qute templates: no braces in
 * the fixed text; the gap is a parameter, so whatever it contains arrives as written.
 */
@RegisterAiService(chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
@ApplicationScoped
public interface DraftService {

    @SystemMessage("""
            Planners asked for a capability no tool offers. Specify the missing tool for an administrator, who \
            will look for an API that offers it: a description, an input schema with a property for every input \
            listed, an output schema and the risk of calling it. Answer with one JSON object and nothing else.""")
    @UserMessage("{gap}")
    DraftAnswer draft(String gap);
}
