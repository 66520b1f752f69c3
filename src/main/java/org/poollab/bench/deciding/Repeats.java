package org.poollab.bench.deciding;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

import org.poollab.bench.results.Point;

/**
 * A cell's repeats judged each on its own: the one home of "failed in some repeat", which
 * a pool must not have to be the choice, since a median over repeats can hide one that
 * failed.
 */
final class Repeats {

	private Repeats() {
	}

	/**
	 * The repeats that did not sustain the rate, each judged as a cell of that repeat
	 * alone ({@link Cell#sustained()}), keyed by their place in the order they ran, from
	 * 1.
	 * @param cell the cell
	 * @return the failed repeats in the order they ran; empty when every repeat sustained
	 * the rate
	 */
	static SortedMap<Integer, Cell> failed(Cell cell) {
		SortedMap<Integer, Cell> failed = new TreeMap<>();
		List<Point> points = cell.points();
		for (int i = 0; i < points.size(); i++) {
			Cell alone = Cell.of(List.of(points.get(i)), cell.p99ObjectiveMs());
			if (!alone.sustained()) {
				failed.put(i + 1, alone);
			}
		}
		return failed;
	}

	/** Every repeat, each on its own, sustained the rate ({@link #failed}). */
	static boolean allSustained(Cell cell) {
		return failed(cell).isEmpty();
	}

}
