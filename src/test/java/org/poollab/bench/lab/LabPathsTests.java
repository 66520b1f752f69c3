package org.poollab.bench.lab;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab finds what the build laid out, and removes the JMeter copies of earlier builds.
 */
class LabPathsTests {

	@TempDir
	Path build;

	@Test
	void removesTheJMeterCopiesOfEarlierBuildsButNotTheCurrentOne() throws Exception {
		Path current = Files.createDirectories(this.build.resolve("0ecf8728-0bfa-4dfd-ad29-184fc0b4a630/jmeter/bin"));
		Path old = Files.createDirectories(this.build.resolve("152336fe-3329-4597-ae58-f2f318b14379/jmeter/bin"));
		Path classes = Files.createDirectories(this.build.resolve("classes"));
		Files.createDirectories(this.build.resolve("lab"));
		Files.writeString(this.build.resolve("lab/runtime.classpath"), "a.jar");
		Files.writeString(this.build.resolve("config.json"),
				"{\"configurations\":[{\"jmeterDirectoryPath\":\"%s\",\"runtimeJarName\":\"ApacheJMeter-5.6.3.jar\"}]}"
					.formatted(current.getParent()));

		LabPaths paths = LabPaths.of(this.build);

		assertThat(paths.jmeterHome()).isEqualTo(current.getParent());
		assertThat(paths.jmeterVersion()).isEqualTo("5.6.3");
		assertThat(paths.removeStaleJMeterCopies()).isEqualTo(1);
		assertThat(old.getParent().getParent()).doesNotExist();
		assertThat(current).isDirectory();
		assertThat(classes).isDirectory();
	}

}
