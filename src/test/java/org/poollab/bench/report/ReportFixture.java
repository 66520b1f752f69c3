package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.poollab.bench.results.ResultsStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The recorded {@code results.json} fixture (preset {@code quick}) copied into a run
 * directory under another preset's name, so the report's preset-dependent parts can be
 * checked without a fixture per preset.
 */
final class ReportFixture {

	private static final String QUICK = "\"preset\": \"quick\"";

	private ReportFixture() {
	}

	static void writeResults(Path runDir, String preset) throws IOException {
		String json;
		try (InputStream fixture = ReportFixture.class.getResourceAsStream("results.json")) {
			json = new String(fixture.readAllBytes(), StandardCharsets.UTF_8);
		}
		assertThat(json).as("the fixture's preset").containsOnlyOnce(QUICK);
		Files.writeString(runDir.resolve(ResultsStore.RESULTS_JSON),
				json.replace(QUICK, "\"preset\": \"" + preset + "\""), StandardCharsets.UTF_8);
	}

}
