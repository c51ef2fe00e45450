package dev.toolsmith.contracts.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The librarian's answer on {@code tool-search-replies}, keyed and correlated by {@code requestId}.
 * {@code substitutionThreshold} is the calibrated default the capabilities manager may use;
 * {@code error} is set when the request itself was invalid.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SearchReply(String requestId, List<SearchHit> hits, double substitutionThreshold, String error) {

    public SearchReply {
        hits = hits == null ? List.of() : List.copyOf(hits);
    }
}
