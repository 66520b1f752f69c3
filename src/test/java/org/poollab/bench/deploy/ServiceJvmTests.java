package org.poollab.bench.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.poollab.bench.lab.BenchSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ServiceJvmTests {

	@TempDir
	Path jdks;

	@Test
	void aJdkIsReadOffItsReleaseFile() throws IOException {
		Path home = jdk("temurin-25", "25.0.3", "Eclipse Adoptium");

		ServiceJvm jvm = ServiceJvm.at(home).orElseThrow();

		assertThat(jvm.version()).isEqualTo("25.0.3");
		assertThat(jvm.vendor()).isEqualTo("Eclipse Adoptium");
		assertThat(jvm.feature()).isEqualTo(25);
		assertThat(jvm.java()).isEqualTo(home.resolve("bin/java").toString());
		assertThat(jvm.describe()).isEqualTo("Java 25.0.3 (Eclipse Adoptium) at " + home);
	}

	@ParameterizedTest
	@CsvSource({ "17.0.15, 17", "21, 21", "1.8.0_402, 8", "25-ea, 25" })
	void theFeatureReleaseIsTheFirstNumberExceptForJava8AndOlder(String version, int feature) throws IOException {
		assertThat(ServiceJvm.at(jdk("jdk", version, "")).orElseThrow().feature()).isEqualTo(feature);
	}

	@Test
	void aDirectoryWithoutReleaseFileOrJavaIsNoJdk() throws IOException {
		Path noRelease = Files.createDirectories(this.jdks.resolve("empty/bin"));
		Path noJava = Files.createDirectories(this.jdks.resolve("jre-less"));
		Files.writeString(noJava.resolve("release"), "JAVA_VERSION=\"21\"\n");

		assertThat(ServiceJvm.at(noRelease.getParent())).isEmpty();
		assertThat(ServiceJvm.at(noJava)).isEmpty();
	}

	@Test
	void aConfiguredJdkOlderThan21IsRefusedForVirtualThreadsAndAcceptedOtherwise() throws IOException {
		Path java17 = jdk("java-17", "17.0.15", "Debian");

		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ServiceJvm.choose(java17, true))
			.withMessage("bench.serviceJavaHome=%s is Java 17.0.15, but bench.threads=virtual needs Java 21 or "
					+ "later. Nothing was started.", java17);
		assertThat(ServiceJvm.choose(java17, false).home()).isEqualTo(java17);
	}

	@Test
	void aConfiguredDirectoryThatIsNoJdkIsRefusedNamingTheSetting() {
		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ServiceJvm.choose(this.jdks, false))
			.withMessageStartingWith("bench.serviceJavaHome=" + this.jdks + " is not a JDK");
	}

	@Test
	void withoutVirtualThreadsTheInstancesRunOnTheLabsOwnJvm() {
		assertThat(ServiceJvm.choose(null, false).home())
			.isEqualTo(Path.of(System.getProperty("java.home")).toAbsolutePath().normalize());
	}

	private Path jdk(String name, String version, String vendor) throws IOException {
		Path home = Files.createDirectories(this.jdks.resolve(name));
		Path bin = Files.createDirectories(home.resolve("bin"));
		Files.writeString(bin.resolve("java"), "#!/bin/sh\n");
		Files.setPosixFilePermissions(bin.resolve("java"), PosixFilePermissions.fromString("rwxr-xr-x"));
		Files.writeString(home.resolve("release"),
				"IMPLEMENTOR=\"" + vendor + "\"\nJAVA_VERSION=\"" + version + "\"\nOS_NAME=\"Linux\"\n");
		return home;
	}

}
