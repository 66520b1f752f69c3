package org.poollab.service.database;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.poollab.service.ServiceApplication;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A {@code lab.database} that does not fit the rest of the configuration stops the
 * service at start, before any database is started or reached, with a message that names
 * the setting, the value and what is allowed.
 */
@ExtendWith(OutputCaptureExtension.class)
class DatabaseVendorIT {

	@Test
	void mariadbUrlWithoutLabDatabaseIsRefusedNamingTheSettingToAdd(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> run("--spring.datasource.url=jdbc:mariadb://127.0.0.1:1/lab?password=hunter2"));
		assertThat(output).contains("Invalid value 'postgresql' for configuration property 'lab.database'",
				"spring.datasource.url=jdbc:mariadb://127.0.0.1:1/lab is a MariaDB URL: set lab.database=mariadb");
		assertThat(output).doesNotContain("hunter2");
	}

	@Test
	void postgresUrlWithMariadbIsRefused(CapturedOutput output) {
		assertThatException().isThrownBy(
				() -> run("--lab.database=mariadb", "--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/lab"));
		assertThat(output).contains("Invalid value 'mariadb' for configuration property 'lab.database'",
				"is a PostgreSQL URL: set lab.database=postgresql");
	}

	@Test
	void vendorOfNoKnownNameIsRefusedListingTheAllowedValues(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run("--lab.database=oracle"));
		assertThat(output).contains("lab.database").containsIgnoringCase("oracle").contains("MARIADB", "POSTGRESQL");
		assertThat(output).as("no stack trace").doesNotContain("\tat ");
	}

	private static void run(String... args) {
		String[] all = new String[args.length + 1];
		all[0] = "--server.port=0";
		System.arraycopy(args, 0, all, 1, args.length);
		SpringApplication.run(ServiceApplication.class, all).close();
	}

}
