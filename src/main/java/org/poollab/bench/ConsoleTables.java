package org.poollab.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.poollab.bench.SweepResults.Point;

/**
 * The paper's Tables I-IV on the console: per topology, rows are pool sizes, columns are
 * rates, each cell "max / p99" latency in ms of the first repeat (the report has
 * medians).
 */
final class ConsoleTables {

	private ConsoleTables() {
	}

	static String render(SweepResults results) {
		StringBuilder out = new StringBuilder();
		// One table per deployment: topology and Tomcat thread count.
		List<List<Object>> deployments = results.points().stream().map(ConsoleTables::deployment).distinct().toList();
		for (List<Object> deployment : deployments) {
			List<Point> points = results.points().stream().filter((p) -> deployment(p).equals(deployment)).toList();
			List<Integer> pools = points.stream().map(Point::poolSize).distinct().sorted().toList();
			List<Integer> rates = points.stream().map(Point::rateRps).distinct().sorted().toList();
			Point any = points.get(0);
			out.append(String.format(Locale.ROOT,
					"%n%s: %d instance(s), load balancer %s, %s. Cells: max / p99 latency (ms); * = errors or unverified%n",
					any.topology(), any.instances(), any.loadBalancer(), any.limits().describe()));
			out.append(String.format("%6s", "pool"));
			rates.forEach((rate) -> out.append(String.format(Locale.ROOT, " | %16s", rate + " rps")));
			out.append(System.lineSeparator());
			for (int pool : pools) {
				out.append(String.format("%6s", SweepResults.poolLabel(pool)));
				for (int rate : rates) {
					out.append(" | ").append(cell(points, pool, rate));
				}
				out.append(System.lineSeparator());
			}
		}
		return out.toString();
	}

	private static List<Object> deployment(Point point) {
		return List.of(point.topology(), point.limits());
	}

	private static String cell(List<Point> points, int pool, int rate) {
		Optional<Point> point = points.stream().filter((p) -> p.poolSize() == pool && p.rateRps() == rate).findFirst();
		if (point.isEmpty()) {
			return String.format("%16s", "-");
		}
		Point p = point.get();
		String flag = (p.errors() > 0 || !p.ok()) ? "*" : " ";
		return String.format(Locale.ROOT, "%7.0f / %5.0f%s", p.latency().maxMs(), p.latency().p99Ms(), flag);
	}

}
