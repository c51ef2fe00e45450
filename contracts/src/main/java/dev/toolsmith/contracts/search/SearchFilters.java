package dev.toolsmith.contracts.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.contracts.tool.Risk;
import java.util.List;

/** Narrows a search before ranking. Every field is optional; a list matches any of its values. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SearchFilters(String namespace, String domain, List<Risk> risk, String status) {

    public static SearchFilters none() {
        return new SearchFilters(null, null, null, null);
    }
}
