package dev.toolsmith.librarian.search;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import java.util.ArrayList;
import java.util.List;

/** Reads a {@link SelectRequest}, naming the field when its JSON has the wrong shape. */
final class SelectRequestReader {

    private SelectRequestReader() {
    }

    static SelectRequest read(ContractCodec codec, String body) {
        JsonNode json = codec.parse(body == null ? "" : body);
        if (!json.isObject()) {
            throw new ContractViolation("", "the document: must be an object");
        }
        JsonNode message = json.path("message");
        if (!message.isMissingNode() && !message.isNull() && !message.isTextual()) {
            throw new ContractViolation("/message", "field /message: must be a string");
        }
        JsonNode budget = json.path("tokenBudget");
        if (!budget.isMissingNode() && !budget.isNull()) {
            if (!budget.isIntegralNumber()) {
                throw new ContractViolation("/tokenBudget", "field /tokenBudget: must be an integer");
            }
            if (!budget.canConvertToInt()) {
                throw new ContractViolation("/tokenBudget", "field /tokenBudget: " + budget.asText()
                        + " is outside 1.." + ToolSearch.MAX_TOKEN_BUDGET);
            }
        }
        JsonNode core = json.path("coreTools");
        List<String> coreTools = new ArrayList<>();
        if (!core.isMissingNode() && !core.isNull()) {
            if (!core.isArray()) {
                throw new ContractViolation("/coreTools", "field /coreTools: must be an array of tool ids");
            }
            for (int i = 0; i < core.size(); i++) {
                if (!core.get(i).isTextual()) {
                    throw new ContractViolation("/coreTools/" + i, "field /coreTools/" + i + ": must be a string");
                }
                coreTools.add(core.get(i).asText());
            }
        }
        JsonNode caller = json.path("caller");
        try {
            return new SelectRequest(message.isTextual() ? message.asText() : null,
                    budget.isNumber() ? Integer.valueOf(budget.intValue()) : null, coreTools,
                    caller.isTextual() ? caller.asText() : null);
        } catch (RuntimeException e) {
            throw new ContractViolation("", "the document: " + e.getMessage());
        }
    }
}
