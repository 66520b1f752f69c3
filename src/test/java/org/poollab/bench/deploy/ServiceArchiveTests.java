package org.poollab.bench.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The class-data archive's key: the same classes, classpath and JDK find the archive made
 * before; any change to them makes a new one, so an instance never maps classes that are
 * not the build's.
 */
class ServiceArchiveTests {

	private static final ServiceJvm JDK = new ServiceJvm(Path.of(System.getProperty("java.home")), "17.0.15", "");

	@Test
	void theKeyChangesWithTheClassesTheClasspathAndTheJdk(@TempDir Path classes) throws Exception {
		Path service = Files.createDirectories(classes.resolve("org/poollab")).resolve("Service.class");
		Files.write(service, new byte[] { 1, 2, 3 });
		Files.setLastModifiedTime(service, FileTime.from(Instant.parse("2026-11-27T22:00:00Z")));
		String key = ServiceArchive.key(JDK, "a.jar:b.jar", classes);

		assertThat(ServiceArchive.key(JDK, "a.jar:b.jar", classes)).as("nothing changed").isEqualTo(key);
		assertThat(ServiceArchive.key(JDK, "a.jar:c.jar", classes)).as("another dependency").isNotEqualTo(key);
		assertThat(ServiceArchive.key(new ServiceJvm(JDK.home(), "17.0.16", ""), "a.jar:b.jar", classes))
			.as("another JDK release")
			.isNotEqualTo(key);

		Files.setLastModifiedTime(service, FileTime.from(Instant.parse("2026-11-27T22:01:00Z")));
		String recompiled = ServiceArchive.key(JDK, "a.jar:b.jar", classes);
		assertThat(recompiled).as("a class compiled again").isNotEqualTo(key);

		Files.write(classes.resolve("org/poollab/Other.class"), new byte[] { 4 });
		assertThat(ServiceArchive.key(JDK, "a.jar:b.jar", classes)).as("a class added").isNotEqualTo(recompiled);
	}

}
