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

	private static final long TIMEOUT_SECONDS = 25;

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
				"--dump-dom", page.toUri().toString()))
			.redirectOutput(dom.toFile())
			.redirectError(log.toFile())
			.start();
		if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			fail("Chromium did not finish within " + TIMEOUT_SECONDS + " s; its log: " + log);
		}
		if (process.exitValue() != 0) {
			fail("Chromium exited with " + process.exitValue() + ": " + Files.readString(log));
		}
		return Files.readString(dom, StandardCharsets.UTF_8);
	}

}
