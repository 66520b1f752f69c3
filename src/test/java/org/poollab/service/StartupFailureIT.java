package org.poollab.service;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Bad configuration stops the service at start with a message that names the setting, the
 * value and what is allowed.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureIT {

	/**
	 * Longer than any start-up that ends by pgjdbc's loginTimeout (3 s,
	 * db/postgresql.yml) even on a saturated machine, and than HikariCP's 30 s
	 * connectionTimeout, which is what would end one without it.
	 */
	private static final Duration HANG_LIMIT = Duration.ofSeconds(45);

	@ParameterizedTest
	@ValueSource(strings = { "abc", "-1", "1.5", "0" })
	void poolSizeThatIsNoWholeNumberOfAtLeastOneIsRejectedInOneLine(String size, CapturedOutput output) {
		assertThatException().isThrownBy(() -> run("--spring.datasource.hikari.maximum-pool-size=" + size));
		assertThat(output).contains("spring.datasource.hikari.maximum-pool-size=" + size
				+ " is not allowed: use a whole number of at least 1 (the connections the pool holds)");
		assertThat(output).as("no stack trace").doesNotContain("\tat ");
	}

	@Test
	void malformedUrlIsRejectedNamingTheSettingAndWhatIsAllowed(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> run("--spring.datasource.url=postgres://127.0.0.1/lab?password=hunter2"));
		assertThat(output).contains(
				"spring.datasource.url=postgres://127.0.0.1/lab is not allowed: use a PostgreSQL JDBC URL, jdbc:postgresql://host:port/database");
		assertThat(output).doesNotContain("hunter2");
	}

	@Test
	void unreachableDatabaseFailsFastWithoutLeakingThePassword(CapturedOutput output) {
		long startNanos = System.nanoTime();
		assertThatException()
			.isThrownBy(() -> run("--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/lab?password=hunter2",
					"--spring.datasource.username=lab"));
		assertThat(output).contains(
				"Could not connect to PostgreSQL at jdbc:postgresql://127.0.0.1:1/lab (spring.datasource.url)",
				"refused");
		assertThat(output).doesNotContain("hunter2");
		assertThat(System.nanoTime() - startNanos).as("start-up gave up promptly")
			.isLessThan(TimeUnit.SECONDS.toNanos(20));
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			Flyway's connection (it connects first) | true
			the pool's first connection             | false
			""")
	void blackHoledDatabaseFailsStartUpByTheLoginTimeoutNamingTheUrl(String whose, boolean flyway,
			CapturedOutput output) throws Exception {
		try (BlackHole hole = BlackHole.open()) {
			// Preemptive, so that a start-up hanging on the black hole fails the test
			// instead of the build.
			Throwable failure = assertTimeoutPreemptively(HANG_LIMIT,
					() -> catchThrowable(
							() -> run("--spring.datasource.url=" + hole.jdbcUrl("lab") + "?password=hunter2",
									"--spring.datasource.username=lab", "--spring.flyway.enabled=" + flyway)),
					"start-up still waiting for the black hole");
			assertThat(failure).as("start-up failed").isNotNull();
			assertThat(hole.connections()).as("connected to the black hole").isPositive();
			// pgjdbc's loginTimeout ended it ("Connection attempt timed out."), not
			// HikariCP's connectionTimeout ("request timed out after 30000ms") nor a
			// hang:
			// that is what makes it seconds. How many seconds is the machine's: 15 s
			// beside
			// a benchmark at load 35 (2026-11-28), so the test does not time it.
			assertThat(output)
				.contains("Could not connect to PostgreSQL at %s (spring.datasource.url): Connection attempt timed out."
					.formatted(hole.jdbcUrl("lab")))
				.doesNotContain("request timed out after");
			assertThat(output).doesNotContain("hunter2");
		}
	}

	private static void run(String... args) {
		String[] all = new String[args.length + 1];
		all[0] = "--server.port=0";
		System.arraycopy(args, 0, all, 1, args.length);
		SpringApplication.run(ServiceApplication.class, all).close();
	}

}
