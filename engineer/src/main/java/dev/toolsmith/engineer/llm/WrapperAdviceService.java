package dev.toolsmith.engineer.llm;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The LLM as a typed service for wrapper advice. Stateless (no chat memory: every call stands alone), and
 * application-scoped because builds call it from worker threads without a request context. The library
 * appends the format instruction built from {@link WrapperAdvice} to the user message and reads the answer
 * (a JSON object, also inside a Markdown fence or a sentence) into the record. Call it only through
 * {@link LlmClient#ask}, which checks that an LLM is configured and turns failures into Toolsmith's reasons.
 * Both messages are Qute templates: no braces in the fixed text; the operation is a parameter, so its JSON
 * arrives as written.
 */
@RegisterAiService(chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
@ApplicationScoped
public interface WrapperAdviceService {

    @SystemMessage("""
            You improve the catalog entry of one HTTP API operation that planners find by searching. Write a \
            better description of the operation and name what it does as a verb. Answer with one JSON object \
            and nothing else.""")
    @UserMessage("{operation}")
    WrapperAdvice advise(String operation);
}
