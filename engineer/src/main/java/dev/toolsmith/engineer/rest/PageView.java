package dev.toolsmith.engineer.rest;

import java.util.List;

/** One page of a listing, with the total count for the filter. */
public record PageView<T>(List<T> items, long total, int page, int size) {
}
