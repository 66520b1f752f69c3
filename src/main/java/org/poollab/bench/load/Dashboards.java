package org.poollab.bench.load;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.telemetry.LoadWindow;

/**
 * JMeter's own HTML dashboard for the points that decide each answer, linked from the
 * report. Every measured window is kept as a slice of its run's samples in JMeter's CSV
 * shape ({@code load/windows/<run>/<point>.csv}); after the sweep JMeter's report
 * generator ({@code jmeter -g}) turns the deciding points' slices into dashboards under
 * {@code dashboards/}, and the slices are deleted. The lab writes its runs' results with
 * only the fields it reads (a wider line per request costs the generator CPU); the slice
 * fills the fields the generator needs but the lab did not record with one label, one
 * thread name and zeros.
 */
public final class Dashboards {

	/** The columns of JMeter's default CSV results, which its report generator reads. */
	static final List<String> HEADER = List.of("timeStamp", "elapsed", "label", "responseCode", "responseMessage",
			"threadName", "dataType", "success", "failureMessage", "bytes", "sentBytes", "grpThreads", "allThreads",
			"URL", "Latency", "IdleTime", "Connect");

	public static final String WINDOWS = "windows";

	private static final Duration TIMEOUT = Duration.ofMinutes(2);

	private Dashboards() {
	}

	/**
	 * Writes one window's samples as a JMeter CSV.
	 * @param label the request's label, e.g. {@code GET /roles}
	 */
	public static void writeSlice(List<LoadWindow.Sample> samples, long startMs, long endMs, String label, Path csv)
			throws IOException {
		Files.createDirectories(csv.getParent());
		try (BufferedWriter writer = Files.newBufferedWriter(csv);
				CSVPrinter printer = new CSVPrinter(writer,
						CSVFormat.DEFAULT.builder().setHeader(HEADER.toArray(String[]::new)).get())) {
			for (LoadWindow.Sample sample : samples) {
				if (sample.startMs() >= startMs && sample.startMs() < endMs) {
					printer.printRecord(sample.startMs(), sample.elapsedMs(), label, sample.code(), "", "open model",
							"text", sample.success(), "", 0, 0, 0, 0, "", 0, 0, 0);
				}
			}
		}
	}

	/** The slice file name of a point: the report's dashboard directory name. */
	public static String sliceName(String topology, String poolLabel, int rateRps, int repeat) {
		return topology + "-pool" + poolLabel + "-rate" + rateRps + "-rep" + repeat + ".csv";
	}

	/**
	 * Generates the dashboards of the deciding points, then deletes every slice.
	 * @return the dashboards written
	 */
	public static List<Path> generate(LabPaths paths, Path runDirectory, List<Decisions.Deciding> deciding,
			ChildProcesses processes, PrintStream out) throws IOException, InterruptedException {
		Path windows = runDirectory.resolve("load").resolve(WINDOWS);
		List<Path> written = new ArrayList<>();
		try {
			for (Decisions.Deciding point : deciding) {
				String name = sliceName(point.topology(), point.poolLabel(), point.rateRps(), point.repeat());
				Optional<Path> slice = latestSlice(windows, name);
				if (slice.isEmpty()) {
					continue;
				}
				Path output = runDirectory.resolve("dashboards").resolve(name.replace(".csv", ""));
				if (generate(paths, slice.get(), output, processes)) {
					written.add(output.resolve("index.html"));
				}
				else {
					out.printf("  JMeter could not generate the dashboard of %s (its log: %s)%n", name,
							output.resolveSibling(output.getFileName() + ".log"));
				}
			}
		}
		finally {
			deleteTree(windows);
		}
		return written;
	}

	/**
	 * The newest slice of that name: a point measured again (generator-bound the first
	 * time) replaces the first; the confirmation runs' slices are not grid points.
	 */
	private static Optional<Path> latestSlice(Path windows, String name) throws IOException {
		if (!Files.isDirectory(windows)) {
			return Optional.empty();
		}
		try (Stream<Path> runs = Files.list(windows)) {
			return runs.filter((run) -> !run.getFileName().toString().startsWith("confirm-"))
				.map((run) -> run.resolve(name))
				.filter(Files::isRegularFile)
				.max(Comparator.comparing(Dashboards::modified));
		}
	}

	private static long modified(Path file) {
		try {
			return Files.getLastModifiedTime(file).toMillis();
		}
		catch (IOException ex) {
			return 0;
		}
	}

	private static boolean generate(LabPaths paths, Path slice, Path output, ChildProcesses processes)
			throws IOException, InterruptedException {
		deleteTree(output); // JMeter refuses a non-empty output directory
		Files.createDirectories(output.getParent());
		Path log = output.resolveSibling(output.getFileName() + ".log");
		List<String> command = List.of(paths.java(), "-XX:TieredStopAtLevel=1", "-Xmx512m", "-jar",
				paths.jmeterHome().resolve("bin").resolve(paths.jmeterJar()).toString(), "-g",
				slice.toAbsolutePath().toString(), "-o", output.toAbsolutePath().toString(), "-j",
				log.toAbsolutePath().toString(),
				// A window is seconds long: a point per second, not JMeter's minute.
				"-Jjmeter.reportgenerator.overall_granularity=1000", "-Jjmeter.save.saveservice.output_format=csv",
				"-Jjmeter.save.saveservice.print_field_names=true", "-Jjmeter.save.saveservice.timestamp_format=ms");
		ProcessBuilder builder = new ProcessBuilder(command).directory(paths.jmeterHome().resolve("bin").toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.resolveSibling(log.getFileName() + ".out").toFile());
		Process process = processes.start("jmeter-dashboard", builder);
		if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			return false;
		}
		return process.exitValue() == 0 && Files.isRegularFile(output.resolve("index.html"));
	}

	private static void deleteTree(Path root) throws IOException {
		if (!Files.exists(root)) {
			return;
		}
		try (Stream<Path> all = Files.walk(root)) {
			for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

}
