package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Evaluates an arithmetic expression with named variables (see {@link ArithmeticExpression}). */
@ApplicationScoped
public class EvaluateExpressionPlugin implements InternalPlugin {

    private static final ToolManifest MANIFEST = Manifests.internal("evaluate-expression", "EVALUATE_EXPRESSION",
            "Evaluate arithmetic expression",
            "Calculate the value of an arithmetic expression such as (price * quantity) * (1 + taxRate) or "
                    + "round(total / 3, 2), with named variables. Supports + - * / % ^, parentheses and abs, sqrt, "
                    + "round, floor, ceil, min, max, pow, ln, log10, exp; decimal arithmetic, no rounding surprises.",
            "math", List.of("math", "arithmetic", "calculate", "compute", "formula", "sum", "percentage"),
            """
            {"type": "object", "required": ["expression"],
             "properties": {
               "expression": {"type": "string", "minLength": 1, "maxLength": 2000},
               "variables": {"type": "object", "additionalProperties": {"type": "number"},
                             "description": "variable name -> number"}
             }}""",
            """
            {"type": "object", "required": ["result"], "properties": {"result": {"type": "number"}}}""");

    @Override
    public ToolManifest manifest() {
        return MANIFEST;
    }

    @Override
    public ObjectNode execute(ObjectNode inputs) {
        Map<String, BigDecimal> variables = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> given = inputs.path("variables").fields();
        while (given.hasNext()) {
            Map.Entry<String, JsonNode> variable = given.next();
            variables.put(variable.getKey(), variable.getValue().decimalValue());
        }
        BigDecimal result = ArithmeticExpression.evaluate(inputs.get("expression").asText(), variables);
        ObjectNode out = Manifests.JSON.createObjectNode();
        out.put("result", plain(result));
        return out;
    }

    /** 2.50 and 2.5 are one number: drop trailing zeros, but never into exponent notation for integers. */
    static BigDecimal plain(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    @Override
    public List<Example> examples() {
        return List.of(
                new Example("invoice total",
                        Manifests.object("{\"expression\": \"round(price * quantity * (1 + taxRate), 2)\","
                                + " \"variables\": {\"price\": 19.99, \"quantity\": 3, \"taxRate\": 0.2}}"),
                        Manifests.object("{\"result\": 71.96}")),
                new Example("decimal exactness", Manifests.object("{\"expression\": \"0.1 + 0.2\"}"),
                        Manifests.object("{\"result\": 0.3}")));
    }
}
