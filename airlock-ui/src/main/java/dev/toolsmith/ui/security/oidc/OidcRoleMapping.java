package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.security.UiRole;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maps the provider's roles claim to a UI role. The claim is a dotted path ({@code groups},
 * {@code realm_access.roles}) to a list of strings or one string (several values separated by spaces or
 * commas). Admin wins over viewer; a user with neither gets no role and is refused.
 */
public record OidcRoleMapping(String claimPath, Set<String> adminValues, Set<String> viewerValues) {

    public Optional<UiRole> roleOf(Map<String, Object> claims) {
        List<String> values = valuesAt(claims);
        if (values.stream().anyMatch(adminValues::contains)) {
            return Optional.of(UiRole.ADMIN);
        }
        if (values.stream().anyMatch(viewerValues::contains)) {
            return Optional.of(UiRole.VIEWER);
        }
        return Optional.empty();
    }

    private List<String> valuesAt(Map<String, Object> claims) {
        Object node = claims;
        for (String step : claimPath.split("\\.")) {
            if (!(node instanceof Map<?, ?> map)) {
                return List.of();
            }
            node = map.get(step);
        }
        List<String> values = new ArrayList<>();
        if (node instanceof Collection<?> list) {
            list.forEach(item -> {
                if (item instanceof String s) {
                    values.add(s);
                }
            });
        } else if (node instanceof String s) {
            for (String value : s.split("[\\s,]+")) {
                if (!value.isEmpty()) {
                    values.add(value);
                }
            }
        }
        return values;
    }
}
