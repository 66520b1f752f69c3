package org.poollab.bench.console;

import java.util.Locale;
import java.util.Optional;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.report.HoldModelTable;
import org.poollab.bench.results.SweepResults;

/**
 * The paper's Tables I-IV on the console: per topology, rows are pool sizes, columns are
 * rates, each cell "max / p99" latency in ms. The cells are the report's own
 * ({@link org.poollab.bench.deciding.TopologyGrid}): medians across repeats, and "died"
 * or "unverified" where the report says so, so the console and the report cannot
 * disagree.
 */
public final class ConsoleTables {

	private static final int WIDTH = 16;

	private ConsoleTables() {
	}

	public static String render(SweepResults results) {
		StringBuilder out = new StringBuilder();
		for (TopologyGrid grid : TopologyGrid.of(results)) {
			String loadBalancer = grid.cells().isEmpty() ? "load balancer -"
					: Deployment.describe(grid.cells().get(0).loadBalancer());
			boolean repeats = grid.cells().stream().anyMatch((cell) -> cell.points().size() > 1);
			out.append(String.format(Locale.ROOT,
					"%n%s: %d instance(s), %s, %s. Cells: max / p99 latency (ms)%s; * = not sustained%n", grid.name(),
					grid.instances(), loadBalancer, grid.limits().describe(),
					repeats ? ", medians across repeats" : ""));
			out.append(String.format("%6s", "pool"));
			for (int rate : grid.ratesRps()) {
				out.append(String.format(Locale.ROOT, " | %" + WIDTH + "s", rate + " rps"));
			}
			out.append(System.lineSeparator());
			for (int pool : grid.poolSizes()) {
				out.append(String.format("%6s", SweepResults.poolLabel(pool)));
				for (int rate : grid.ratesRps()) {
					out.append(" | ").append(cell(grid.cell(pool, rate)));
				}
				out.append(System.lineSeparator());
			}
			HoldModelTable.summary(grid).ifPresent((summary) -> out.append(summary).append(System.lineSeparator()));
		}
		return out.toString();
	}

	private static String cell(Optional<Cell> measured) {
		if (measured.isEmpty()) {
			return String.format("%" + WIDTH + "s", "-");
		}
		Cell cell = measured.get();
		if (cell.instead().isPresent()) {
			return String.format("%" + WIDTH + "s", cell.instead().get() + "*");
		}
		return String.format(Locale.ROOT, "%7.0f / %5.0f%s", cell.latency().maxMs(), cell.latency().p99Ms(),
				cell.sustained() ? " " : "*");
	}

}
