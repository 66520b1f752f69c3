package org.poollab.bench.report;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

import static org.assertj.core.api.Assertions.fail;

/**
 * Headless Chromium, to load a page the way a reader's browser does and hand back the DOM
 * after its scripts ran.
 */
final class Chromium {

	/**
	 * A bound for a browser that hangs, not a timed assertion: the page renders in about
	 * a second here, but CI's first start of a freshly installed Chromium once took
	 * longer than 25 s.
	 */
	private static final long TIMEOUT_SECONDS = 120;

	private final Path executable;

	private Chromium(Path executable) {
		this.executable = executable;
	}

	/**
	 * The installed Chromium. Missing, it skips the test on a developer's machine but
	 * fails it under CI, where a skipped browser test would pass for a broken report.
	 */
	static Chromium require() {
		Optional<Path> found = Stream
			.concat(Stream.of(Path.of("/usr/bin/chromium")),
					Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
						.filter((dir) -> !dir.isEmpty())
						.flatMap((dir) -> Stream.of(Path.of(dir, "chromium"), Path.of(dir, "chromium-browser"))))
			.filter(Files::isExecutable)
			.findFirst();
		String message = "Chromium not found (looked for /usr/bin/chromium and chromium on PATH): "
				+ "apt-get install chromium to run the report's browser test";
		if (found.isEmpty()) {
			if (System.getenv("CI") != null) {
				fail(message + " (CI is set, so this fails instead of skipping)");
			}
			Assumptions.abort(message);
		}
		return new Chromium(found.get());
	}

	/**
	 * Load the page, give its scripts virtual time to run, and return the resulting DOM.
	 */
	String dumpDom(Path page, Path workDir) throws IOException, InterruptedException {
		Path profile = Files.createTempDirectory(workDir, "chromium-profile");
		Path dom = workDir.resolve("dom.html");
		Path log = workDir.resolve("chromium.log");
		Process process = new ProcessBuilder(List.of(this.executable.toString(), "--headless", "--no-sandbox",
				"--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--no-first-run", "--user-data-dir=" + profile, "--virtual-time-budget=5000", "--window-size=1400,3000",
				// the page's console into the log, so a script error fails the test by
				// name
				"--enable-logging=stderr", "--v=0", "--dump-dom", page.toUri().toString()))
			.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
			.redirectOutput(dom.toFile())
			.redirectError(log.toFile())
			.start();
		if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
			process.waitFor(10, TimeUnit.SECONDS);
			fail("Chromium did not finish within " + TIMEOUT_SECONDS + " s; the end of its log:\n" + tail(log));
		}
		if (process.exitValue() != 0) {
			fail("Chromium exited with " + process.exitValue() + "; the end of its log:\n" + tail(log));
		}
		List<String> scriptErrors = Files.readAllLines(log, StandardCharsets.UTF_8)
			.stream()
			.filter((line) -> line.contains(":CONSOLE") && line.contains("Uncaught"))
			.toList();
		if (!scriptErrors.isEmpty()) {
			fail("The page's scripts failed:\n" + String.join("\n", scriptErrors));
		}
		return Files.readString(dom, StandardCharsets.UTF_8);
	}

	/** The log's last lines, so that CI's output says why, not only where the log was. */
	private static String tail(Path log) throws IOException {
		List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
		return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
	}

}
