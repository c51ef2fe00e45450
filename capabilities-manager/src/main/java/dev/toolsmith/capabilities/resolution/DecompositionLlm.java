package dev.toolsmith.capabilities.resolution;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import io.quarkiverse.langchain4j.RegisterAiService;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The LLM that decomposes a step, as a quarkus-langchain4j AI service: the library sends the two
 * messages with its JSON-format instruction for {@link ProposedPlan} appended to the user message, and
 * reads the answer (a ```json fence and prose around the object included) into that record. An answer
 * it cannot read into the record throws {@code OutputParsingException}.
 *
 * <p>Stateless (no chat memory): {@link PlanDecomposer} asks at most twice, and the second request
 * carries everything the model must see — the step, its previous answer and the problems — built by
 * {@link DecompositionPrompts}. The prompts arrive as template values rather than template text, so Qute
 * never interprets the braces of the JSON examples in them. Application-scoped rather than the library's
 * default request scope: decomposition runs on a worker thread of a Kafka-driven step, where no request
 * context is active, and a stateless service has nothing to keep per request.
 */
@ApplicationScoped
@RegisterAiService(chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
public interface DecompositionLlm {

    @SystemMessage("{instructions}")
    @UserMessage("{request}")
    ProposedPlan propose(@V("instructions") String instructions, @V("request") String request);
}
