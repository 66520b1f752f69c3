package org.poollab.service.hold;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * {@code lab.hold.*} as both services bind it: off unless a mean is set, and a bad value
 * refused at start in one line naming the setting, the value and what is allowed.
 */
@ExtendWith(OutputCaptureExtension.class)
class HoldSettingsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(Settings.class);

	@Test
	void unsetMeansNoEmulatedHold() {
		this.runner.run((context) -> {
			HoldProperties properties = context.getBean(HoldProperties.class);
			assertThat(properties.hold()).isEmpty();
			assertThat(HoldPadding.of(properties)).isEmpty();
			assertThat(properties.place()).isEqualTo(HoldPlace.DATABASE);
			assertThat(properties.seed()).isEqualTo(1);
		});
	}

	@Test
	void meanAndP99AsTheLabWritesThemBindToALognormalHold() {
		this.runner
			.withPropertyValues("lab.hold.mean=20000us", "lab.hold.p99=80000us", "lab.hold.place=application",
					"lab.hold.seed=8081")
			.run((context) -> {
				HoldProperties properties = context.getBean(HoldProperties.class);
				assertThat(properties.hold()).hasValue(new HoldTime(20, 80.0));
				assertThat(properties.place()).isEqualTo(HoldPlace.APPLICATION);
				assertThat(properties.seed()).isEqualTo(8081);
			});
		this.runner.withPropertyValues("lab.hold.mean=1500us")
			.run((context) -> assertThat(context.getBean(HoldProperties.class).hold())
				.hasValue(HoldTime.of(Duration.ofMillis(1).plusNanos(500_000), null)));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
									lab.hold.mean=0ms   |                    | lab.hold.mean=0ms is not allowed: the mean hold must be from 0.1ms to 60s; use a mean from 0.1ms to 60s
									lab.hold.mean=-5ms  |                    | lab.hold.mean=-5ms is not allowed: the mean hold must be from 0.1ms to 60s; use
									lab.hold.mean=20ms  | lab.hold.p99=10ms  | lab.hold.p99=10ms is not allowed: the p99 must be at least the mean, with lab.hold.mean=20ms; use
									lab.hold.mean=20ms  | lab.hold.p99=1000ms | lab.hold.p99=1000ms is not allowed: the p99 must be at most 45 times the mean (beyond it nearly every hold would be near 0: at least 1 % of holds reach the p99, so it is never beyond 100 times the mean), with lab.hold.mean=20ms; use
									lab.hold.p99=40ms   |                    | lab.hold.p99=40ms is not allowed: a p99 needs lab.hold.mean, the mean it spreads around; use
									lab.hold.mean=abc   |                    | lab.hold.mean=abc is not allowed: use a mean from 0.1ms to 60s
							lab.hold.mean=0.5ms |                    | lab.hold.mean=0.5ms is not allowed: use a mean from 0.1ms to 60s
									lab.hold.place=disk |                    | lab.hold.place=disk is not allowed: use database or application
									lab.hold.mean=20ms  | lab.hold.uses=0.5  | lab.hold.uses=0.5 is not allowed: uses per request must be from 1 to 100; use a number of connection uses per request from 1 to 100
									lab.hold.mean=20ms  | lab.hold.histogram=5:0.5,2:1 | lab.hold.histogram=5:0.5,2:1 is not allowed: the buckets' bounds must rise and their shares must not fall nor pass 1; use bucket upper bounds in milliseconds
									lab.hold.cpu=2000ms |                    | lab.hold.cpu=2000ms is not allowed: the database CPU per request must be from 0.1ms to 1s; use a duration of database CPU per request from 0.1ms to 1s
					lab.hold.mena=20ms  |                    | lab.hold.mena=20ms is not a setting of the service: use lab.hold.cpu, lab.hold.histogram, lab.hold.mean, lab.hold.p99, lab.hold.place, lab.hold.seed, lab.hold.uses
									""")
	void badSettingIsNamedWithItsValueAndWhatIsAllowed(String setting, String other, String message) {
		this.runner.withPropertyValues(setting, (other != null) ? other : "lab.hold.seed=1").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new HoldSettingFailureAnalyzer(new StandardEnvironment())
				.analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).startsWith(message).doesNotContain("\n");
		});
	}

	@Test
	void startUpFailsWithTheOneLineAsWritten(CapturedOutput output) {
		// application.yml's web-application-type would override the builder's.
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(Settings.class).bannerMode(Banner.Mode.OFF)
			.run("--spring.main.web-application-type=none", "--lab.hold.mean=10ms", "--lab.hold.p99=500ms"));
		assertThat(output).contains("lab.hold.p99=500ms is not allowed: the p99 must be at most 45 times the mean",
				"use a mean from 0.1ms to 60s, or a mean and a p99", "Set lab.hold.mean (and lab.hold.p99");
		assertThat(output).as("no stack trace").doesNotContain("\tat ");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(HoldProperties.class)
	static class Settings {

	}

}
