package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

/** Converts a quantity between units of length, mass, volume, time, data, speed, area and temperature. */
@ApplicationScoped
public class ConvertUnitsPlugin implements InternalPlugin {

    private static final MathContext RESULT = new MathContext(12);

    private static final ToolManifest MANIFEST = Manifests.internal("convert-units", "CONVERT_UNITS",
            "Convert units of measurement",
            "Convert a quantity from one unit of measurement to another: length (km, mi, ft, in), mass (kg, lb, oz), "
                    + "volume (l, gal, cup), time (h, min, d), data size (MB, GiB), speed (km/h, mph, knots), area "
                    + "(m2, acre, ha) and temperature (Celsius, Fahrenheit, Kelvin). Not for currencies.",
            "math", List.of("units", "convert", "measurement", "metric", "imperial", "temperature", "distance", "weight"),
            """
            {"type": "object", "required": ["value", "from", "to"],
             "properties": {
               "value": {"type": "number", "description": "the quantity to convert"},
               "from": {"type": "string", "minLength": 1, "description": "unit of value, e.g. km, lb, F, GiB"},
               "to": {"type": "string", "minLength": 1, "description": "unit to convert to"}
             }}""",
            """
            {"type": "object", "required": ["value", "unit"],
             "properties": {"value": {"type": "number"}, "unit": {"type": "string"}}}""");

    @Override
    public ToolManifest manifest() {
        return MANIFEST;
    }

    @Override
    public ObjectNode execute(ObjectNode inputs) {
        Units.Unit from = unit(inputs.get("from").asText(), "from");
        Units.Unit to = unit(inputs.get("to").asText(), "to");
        if (!from.dimension().equals(to.dimension())) {
            throw new PluginFailure("cannot convert " + from.dimension() + " (" + from.symbol() + ") to "
                    + to.dimension() + " (" + to.symbol() + ")");
        }
        BigDecimal converted = to.fromBase(from.toBase(inputs.get("value").decimalValue())).round(RESULT);
        ObjectNode out = Manifests.JSON.createObjectNode();
        out.put("value", EvaluateExpressionPlugin.plain(converted));
        out.put("unit", to.symbol());
        return out;
    }

    private static Units.Unit unit(String name, String input) {
        return Units.find(name).orElseThrow(() -> new PluginFailure("input '" + input + "': unknown unit '" + name
                + "'"));
    }

    @Override
    public List<Example> examples() {
        return List.of(
                new Example("marathon in miles", Manifests.object("{\"value\": 42.195, \"from\": \"km\", \"to\": \"mi\"}"),
                        Manifests.object("{\"value\": 26.2187574565, \"unit\": \"mi\"}")),
                new Example("body temperature", Manifests.object("{\"value\": 98.6, \"from\": \"fahrenheit\", \"to\": \"C\"}"),
                        Manifests.object("{\"value\": 37, \"unit\": \"C\"}")));
    }
}
