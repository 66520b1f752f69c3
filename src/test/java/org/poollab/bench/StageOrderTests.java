package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness reads like its pipeline: each package under {@code bench} uses only the
 * packages before it in {@link #STAGES} (the package map in code-map.md lists them in the
 * same order), the services never use the harness, and no two harness classes share a
 * simple name.
 */
class StageOrderTests {

	/**
	 * The harness's packages, lowest first: each may use only those before it. The
	 * orchestrator ({@code org.poollab.bench} itself) sits on top and may use them all.
	 */
	static final List<String> STAGES = List.of("text", "lab", "model", "results", "deciding", "acquire", "grid",
			"deploy", "telemetry", "load", "report", "settings", "console");

	private static final String BENCH = "org.poollab.bench";

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("org.poollab");

	@Test
	void eachStageUsesOnlyTheStagesBeforeIt() {
		stageOrder().check(MAIN);
	}

	@Test
	void theServicesNeverUseTheHarness() {
		noClasses().that()
			.resideInAnyPackage("org.poollab.service..", "org.poollab.reactive..", "org.poollab.crosscheck..",
					"org.poollab.management..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage(BENCH + "..")
			.because("the services under test must run without the lab")
			.check(MAIN);
	}

	@Test
	void harnessPackagesHaveNoCycles() {
		slices().matching(BENCH + ".(*)..").should().beFreeOfCycles().check(MAIN);
	}

	@Test
	void noTwoHarnessClassesShareASimpleName() {
		Map<String, List<String>> byName = MAIN.stream()
			.filter((type) -> type.getPackageName().startsWith(BENCH) && type.isTopLevelClass())
			.collect(Collectors.groupingBy(JavaClass::getSimpleName,
					Collectors.mapping(JavaClass::getName, Collectors.toList())));
		classes().that()
			.resideInAPackage(BENCH + "..")
			.and()
			.areTopLevelClasses()
			.and()
			.doNotHaveSimpleName("package-info")
			.should(haveANameOfTheirOwn(byName))
			.because("a name used twice forces fully qualified names in code")
			.check(MAIN);
	}

	@Test
	void thePackageMapListsTheStagesInTheSameOrder() throws IOException {
		String page = Files.readString(Path.of("src", "site", "markdown", "code-map.md"));
		String map = page.substring(page.indexOf("## Package map"));
		int next = map.indexOf("\n## ");
		map = (next < 0) ? map : map.substring(0, next);
		List<String> listed = Pattern.compile("^\\| \\[`bench/(\\w+)`\\]", Pattern.MULTILINE)
			.matcher(map)
			.results()
			.map((row) -> row.group(1))
			.toList();
		assertThat(listed).isEqualTo(STAGES);
	}

	/** The same order the package map (src/site/markdown/code-map.md) gives. */
	static ArchRule stageOrder() {
		LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
		for (String stage : STAGES) {
			layers = layers.layer(stage).definedBy(BENCH + "." + stage + "..");
		}
		layers = layers.layer("sweep").definedBy(BENCH);
		List<String> above = new ArrayList<>(STAGES);
		above.add("sweep");
		for (int i = 0; i < STAGES.size(); i++) {
			String[] later = above.subList(i + 1, above.size()).toArray(String[]::new);
			layers = layers.whereLayer(STAGES.get(i)).mayOnlyBeAccessedByLayers(later);
		}
		return layers.whereLayer("sweep").mayNotBeAccessedByAnyLayer();
	}

	private static ArchCondition<JavaClass> haveANameOfTheirOwn(Map<String, List<String>> byName) {
		return new ArchCondition<>("have a simple name no other harness class has") {
			@Override
			public void check(JavaClass type, ConditionEvents events) {
				List<String> same = byName.getOrDefault(type.getSimpleName(), List.of());
				if (same.size() > 1) {
					events.add(SimpleConditionEvent.violated(type,
							type.getName() + " shares its simple name with " + same));
				}
			}
		};
	}

}
