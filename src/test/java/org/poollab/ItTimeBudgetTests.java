package org.poollab;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

class ItTimeBudgetTests {

	@Test
	void aClassOverItsBudgetIsToldItsNameTheTimeItTookAndTheBudget() {
		assertThat(
				ItTimeBudget.overrun("org.poollab.bench.SlowIT", Duration.ofMillis(301_400), Duration.ofSeconds(300)))
			.hasValueSatisfying((message) -> assertThat(message).contains("org.poollab.bench.SlowIT")
				.contains("took 301.4 s")
				.contains("budget of 300 s")
				.contains("org.poollab.ItTimeBudget.PER_CLASS"));
	}

	@Test
	void aClassWithinItsBudgetPasses() {
		assertThat(ItTimeBudget.overrun("org.poollab.bench.QuickIT", Duration.ofSeconds(300), Duration.ofSeconds(300)))
			.isEmpty();
		assertThat(ItTimeBudget.overrun("org.poollab.bench.QuickIT", Duration.ofSeconds(12), Duration.ofSeconds(300)))
			.isEmpty();
	}

	@Test
	void onlyTopLevelIntegrationTestClassesAreTimed() throws ClassNotFoundException {
		assertThat(ItTimeBudget.isIntegrationTest(Class.forName("org.poollab.bench.SweepEndToEndIT"))).isTrue();
		assertThat(ItTimeBudget.isIntegrationTest(ItTimeBudgetTests.class)).isFalse();
		assertThat(ItTimeBudget.isIntegrationTest(SlowIT.class)).as("a nested class is its outer class's time")
			.isFalse();
	}

	@Test
	void aClassThatRanLongerThanItsBudgetFailsCountingItsAfterAll() {
		SlowIT.clockNanos.set(0);
		TestExecutionSummary summary = run(SlowIT.class);
		assertThat(summary.getTestsSucceededCount()).as("its test passed").isEqualTo(1);
		assertThat(summary.getFailures()).singleElement()
			.satisfies((failure) -> assertThat(failure.getException()).isInstanceOf(AssertionError.class)
				.hasMessageContaining(SlowIT.class.getName())
				.hasMessageContaining("took 301.0 s")
				.hasMessageContaining("budget of 300 s"));
	}

	@Test
	void everyTestClassIsHeldToTheBudgetByAutoDetection() throws IOException {
		assertThat(ServiceLoader.load(Extension.class)).anyMatch(ItTimeBudget.class::isInstance);
		Properties junit = new Properties();
		try (InputStream in = ItTimeBudgetTests.class.getResourceAsStream("/junit-platform.properties")) {
			assertThat(in).as("junit-platform.properties on the test classpath").isNotNull();
			junit.load(in);
		}
		assertThat(junit.getProperty("junit.jupiter.extensions.autodetection.enabled")).isEqualTo("true");
		String include = junit.getProperty("junit.jupiter.extensions.autodetection.include", "*");
		assertThat(ItTimeBudget.class.getName()).matches(include.replace(".", "\\.").replace("*", ".*"));
		assertThat(junit.getProperty("junit.jupiter.extensions.autodetection.exclude")).isNull();
	}

	private static TestExecutionSummary run(Class<?> testClass) {
		Launcher launcher = LauncherFactory.create();
		SummaryGeneratingListener listener = new SummaryGeneratingListener();
		launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
		return listener.getSummary();
	}

	/**
	 * A class whose clock is advanced past the budget by its {@code @AfterAll}: only run
	 * through the launcher above (a nested class is not one that Surefire or Failsafe
	 * runs).
	 */
	static class SlowIT {

		static final AtomicLong clockNanos = new AtomicLong();

		@RegisterExtension
		static final ItTimeBudget budget = new ItTimeBudget(Duration.ofSeconds(300), clockNanos::get,
				(testClass) -> true);

		@Test
		void passes() {
			clockNanos.addAndGet(Duration.ofSeconds(1).toNanos());
		}

		@AfterAll
		static void tearDownSlowly() {
			clockNanos.addAndGet(Duration.ofSeconds(300).toNanos());
		}

	}

}
