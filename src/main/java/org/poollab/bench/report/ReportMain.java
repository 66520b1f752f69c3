package org.poollab.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.poollab.bench.deciding.Recommendation;

/**
 * Regenerates a run's report from its {@code results.json}, e.g.
 * {@code ./mvnw -q compile exec:java -Dexec.mainClass=org.poollab.bench.report.ReportMain -Dexec.args=target/bench/latest}
 * ({@link #command(Path)}), and ends like the sweep's console: the answer per topology,
 * where the report is, and the recommended block to paste.
 */
public final class ReportMain {

	/** Where the sweep points its latest run. */
	public static final String DEFAULT_RUN_DIR = "target/bench/latest";

	private ReportMain() {
	}

	public static void main(String[] args) throws IOException {
		run(Path.of((args.length > 0) ? args[0] : DEFAULT_RUN_DIR), System.out);
	}

	/**
	 * The command that rebuilds a run's report, for a sweep that ended before writing
	 * one.
	 * @param runDir the run's directory
	 * @return the command line
	 */
	public static String command(Path runDir) {
		return "./mvnw -q compile exec:java -Dexec.mainClass=" + ReportMain.class.getName() + " -Dexec.args=" + runDir;
	}

	public static void run(Path runDir, PrintStream out) throws IOException {
		printEnding(Report.regenerate(runDir, out), runDir, out);
	}

	/**
	 * How a run ends on the console, after a sweep or a regenerated report: each
	 * topology's answer, where the report is, and the block to paste.
	 */
	public static void printEnding(List<Recommendation> recommendations, Path runDir, PrintStream out)
			throws IOException {
		for (Recommendation recommendation : recommendations) {
			out.println(recommendation.topology() + ": " + Header.headline(recommendation) + ". "
					+ recommendation.summary());
		}
		Path yaml = runDir.resolve(Report.RECOMMENDED_YAML);
		out.printf("%nReport: %s%nRecommended configuration (%s):%n%s%n", runDir.resolve(Report.HTML).toAbsolutePath(),
				yaml.toAbsolutePath(), Files.readString(yaml));
	}

}
