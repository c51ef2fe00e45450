package dev.toolsmith.engineer.gaps;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.llm.LlmClient;
import dev.toolsmith.engineer.llm.LlmUnavailableException;
import dev.toolsmith.engineer.llm.RejectedAnswerException;
import dev.toolsmith.openapi.CandidateValidator;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Asks the LLM to specify the tool a capability gap is missing ({@link DraftService}), as a draft manifest
 * (see {@link DraftManifest} for what is checked). Blocking; never call it inside a transaction.
 */
@ApplicationScoped
public class ManifestDrafter {

    private final LlmClient llm;
    private final DraftService service;
    private final DraftManifest drafts;

    public ManifestDrafter(LlmClient llm, DraftService service, ContractCodec codec) {
        this.llm = llm;
        this.service = service;
        this.drafts = new DraftManifest(new CandidateValidator(codec.validator(), codec.mapper()), codec.mapper());
    }

    public boolean available() {
        return llm.available();
    }

    /** The validated draft; the exceptions say why there is none. */
    public ToolManifest draft(String actionVerb, String normalizedVerb, String description, List<String> inputNames)
            throws RejectedAnswerException {
        StringBuilder prompt = new StringBuilder("Missing capability: ").append(actionVerb).append('\n');
        if (description != null && !description.isBlank()) {
            prompt.append("What the planner wanted: ").append(abbreviate(description)).append('\n');
        }
        prompt.append("Inputs the planner gives: ").append(inputNames.isEmpty() ? "none" : String.join(", ", inputNames));
        String gap = prompt.toString();
        return drafts.read(llm.ask(() -> service.draft(gap)), actionVerb, normalizedVerb, inputNames);
    }

    /** Unreachable LLM and refused answer alike become the reason shown as {@code draftError}. */
    public static String reason(Exception e) {
        return e instanceof LlmUnavailableException || e instanceof RejectedAnswerException ? e.getMessage()
                : "drafting failed unexpectedly: " + e;
    }

    private static String abbreviate(String text) {
        return text.length() <= 1000 ? text : text.substring(0, 1000) + "…";
    }
}
