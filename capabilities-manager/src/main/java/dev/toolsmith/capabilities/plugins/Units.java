package dev.toolsmith.capabilities.plugins;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The units {@link ConvertUnitsPlugin} knows, each as a factor to its dimension's base unit (plus an
 * offset for temperatures), under its symbol and common names. US customary volumes.
 */
final class Units {

    record Unit(String symbol, String dimension, BigDecimal factor, BigDecimal offset) {

        BigDecimal toBase(BigDecimal value) {
            return value.add(offset, MC).multiply(factor, MC);
        }

        BigDecimal fromBase(BigDecimal base) {
            return base.divide(factor, MC).subtract(offset, MC);
        }
    }

    static final MathContext MC = MathContext.DECIMAL128;

    private static final Map<String, Unit> BY_NAME = new HashMap<>();

    static {
        // length, base metre
        unit("length", "m", "1", "meter", "meters", "metre", "metres");
        unit("length", "km", "1000", "kilometer", "kilometers", "kilometre", "kilometres");
        unit("length", "cm", "0.01", "centimeter", "centimeters", "centimetre", "centimetres");
        unit("length", "mm", "0.001", "millimeter", "millimeters", "millimetre", "millimetres");
        unit("length", "mi", "1609.344", "mile", "miles");
        unit("length", "yd", "0.9144", "yard", "yards");
        unit("length", "ft", "0.3048", "foot", "feet");
        unit("length", "in", "0.0254", "inch", "inches");
        unit("length", "nmi", "1852", "nautical mile", "nautical miles");
        // mass, base kilogram
        unit("mass", "kg", "1", "kilogram", "kilograms", "kilo", "kilos");
        unit("mass", "g", "0.001", "gram", "grams");
        unit("mass", "mg", "0.000001", "milligram", "milligrams");
        unit("mass", "t", "1000", "tonne", "tonnes", "metric ton", "metric tons");
        unit("mass", "lb", "0.45359237", "lbs", "pound", "pounds");
        unit("mass", "oz", "0.028349523125", "ounce", "ounces");
        unit("mass", "st", "6.35029318", "stone", "stones");
        // volume, base litre
        unit("volume", "l", "1", "liter", "liters", "litre", "litres");
        unit("volume", "ml", "0.001", "milliliter", "milliliters", "millilitre", "millilitres");
        unit("volume", "m3", "1000", "cubic meter", "cubic meters", "cubic metre", "cubic metres");
        unit("volume", "gal", "3.785411784", "gallon", "gallons", "us gallon", "us gallons");
        unit("volume", "qt", "0.946352946", "quart", "quarts");
        unit("volume", "pt", "0.473176473", "pint", "pints");
        unit("volume", "cup", "0.2365882365", "cups");
        unit("volume", "floz", "0.0295735295625", "fl oz", "fluid ounce", "fluid ounces");
        // time, base second
        unit("time", "s", "1", "sec", "second", "seconds");
        unit("time", "ms", "0.001", "millisecond", "milliseconds");
        unit("time", "min", "60", "minute", "minutes");
        unit("time", "h", "3600", "hr", "hour", "hours");
        unit("time", "d", "86400", "day", "days");
        unit("time", "wk", "604800", "week", "weeks");
        // data, base byte
        unit("data", "B", "1", "byte", "bytes");
        unit("data", "KB", "1000", "kilobyte", "kilobytes");
        unit("data", "MB", "1000000", "megabyte", "megabytes");
        unit("data", "GB", "1000000000", "gigabyte", "gigabytes");
        unit("data", "TB", "1000000000000", "terabyte", "terabytes");
        unit("data", "KiB", "1024", "kibibyte", "kibibytes");
        unit("data", "MiB", "1048576", "mebibyte", "mebibytes");
        unit("data", "GiB", "1073741824", "gibibyte", "gibibytes");
        // speed, base metre per second
        unit("speed", "m/s", "1", "meters per second", "metres per second", "mps");
        unit("speed", "km/h", "0.27777777777777777777777777777777778", "kph", "kmh", "kilometers per hour",
                "kilometres per hour");
        unit("speed", "mph", "0.44704", "miles per hour");
        unit("speed", "kn", "0.51444444444444444444444444444444444", "knot", "knots");
        // area, base square metre
        unit("area", "m2", "1", "square meter", "square meters", "square metre", "square metres");
        unit("area", "km2", "1000000", "square kilometer", "square kilometers", "square kilometre", "square kilometres");
        unit("area", "ha", "10000", "hectare", "hectares");
        unit("area", "acre", "4046.8564224", "acres");
        unit("area", "ft2", "0.09290304", "square foot", "square feet");
        // temperature, base kelvin: kelvin = (value + offset) * factor
        temperature("K", "1", "0", "kelvin");
        temperature("C", "1", "273.15", "°C", "celsius", "centigrade");
        temperature("F", "0.55555555555555555555555555555555556", "459.67", "°F", "fahrenheit");
    }

    private Units() {
    }

    static Optional<Unit> find(String name) {
        Unit exact = BY_NAME.get(name.trim());
        return Optional.ofNullable(exact != null ? exact : BY_NAME.get(name.trim().toLowerCase(Locale.ROOT)));
    }

    private static void unit(String dimension, String symbol, String factor, String... names) {
        register(new Unit(symbol, dimension, new BigDecimal(factor), BigDecimal.ZERO), names);
    }

    private static void temperature(String symbol, String factor, String offset, String... names) {
        register(new Unit(symbol, "temperature", new BigDecimal(factor), new BigDecimal(offset)), names);
    }

    private static void register(Unit unit, String... names) {
        BY_NAME.put(unit.symbol(), unit);
        // Lower-case symbols too, except where that would clash (MB vs mb, B vs b are fine; "t"/"T" too).
        BY_NAME.putIfAbsent(unit.symbol().toLowerCase(Locale.ROOT), unit);
        for (String name : names) {
            BY_NAME.put(name.toLowerCase(Locale.ROOT), unit);
        }
    }
}
