package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where the build put what the sweep runs: the service's classes and runtime classpath
 * (written by maven-dependency-plugin) and the JMeter installation laid out by the
 * jmeter-maven-plugin's configure goal (described in {@code target/config.json}).
 */
record LabPaths(Path projectDirectory, Path buildDirectory, String serviceClasspath, Path jmeterHome,
		String jmeterJar) {

	static LabPaths of(Path buildDirectory) {
		Path build = buildDirectory.toAbsolutePath().normalize();
		Path classpathFile = build.resolve("lab/runtime.classpath");
		Path jmeterConfig = build.resolve("config.json");
		if (!Files.isRegularFile(classpathFile) || !Files.isRegularFile(jmeterConfig)) {
			throw new LabFailureException(
					"The build has not prepared the lab yet (%s or %s is missing): run it through Maven, e.g. ./mvnw verify -Pbench"
						.formatted(classpathFile, jmeterConfig));
		}
		try {
			String classpath = build.resolve("classes") + java.io.File.pathSeparator
					+ Files.readString(classpathFile).trim();
			JsonNode configuration = JsonMapper.builder()
				.build()
				.readTree(jmeterConfig.toFile())
				.get("configurations")
				.get(0);
			return new LabPaths(build.getParent(), build, classpath,
					Path.of(configuration.get("jmeterDirectoryPath").asString()),
					configuration.get("runtimeJarName").asString());
		}
		catch (IOException ex) {
			throw new LabFailureException("Could not read " + classpathFile + " or " + jmeterConfig, ex);
		}
	}

	String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	Path plan(String name) {
		return this.projectDirectory.resolve("jmeter").resolve(name);
	}

}
