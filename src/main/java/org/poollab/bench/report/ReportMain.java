package org.poollab.bench.report;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Regenerates a run's report from its {@code results.json}, e.g.
 * {@code ./mvnw -q exec:java -Dexec.mainClass=org.poollab.bench.report.ReportMain -Dexec.args=target/bench/latest}.
 */
public final class ReportMain {

	/** Where the sweep points its latest run. */
	public static final String DEFAULT_RUN_DIR = "target/bench/latest";

	private ReportMain() {
	}

	public static void main(String[] args) throws IOException {
		Path runDir = Path.of((args.length > 0) ? args[0] : DEFAULT_RUN_DIR);
		for (Recommendation recommendation : Report.regenerate(runDir)) {
			System.out.println(recommendation.topology() + ": " + Header.headline(recommendation));
		}
		System.out.println("Wrote " + runDir.resolve("report.html").toAbsolutePath());
	}

}
