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
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness reads like its pipeline: each package under {@code bench} uses only the
 * packages before it in {@link #STAGES} (the package map in code-map.md lists them in the
 * same order), no package reaches itself again through others (the top package included),
 * no two classes of the orchestration or its rooms use each other, the services never use
 * the harness, and no two harness classes share a simple name.
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

	/**
	 * The packages whose classes never depend on each other in a cycle: the orchestration
	 * on top and the rooms it reads its settings from and prints through.
	 */
	static final List<String> ACYCLIC_PACKAGES = List.of(BENCH, BENCH + ".settings", BENCH + ".console");

	@Test
	void harnessPackagesHaveNoCyclesTheTopPackageIncluded() {
		packagesFreeOfCycles(BENCH).check(MAIN);
	}

	@Test
	void noTwoClassesOfTheOrchestrationOrItsRoomsDependOnEachOther() {
		for (String name : ACYCLIC_PACKAGES) {
			classesFreeOfCycles(name).check(MAIN);
		}
	}

	/**
	 * Both cycle rules fail on a cycle, and a nested class counts as its outer class
	 * ({@code org.poollab.cyclefixture}: {@code Top} and {@code Beside} use each other,
	 * {@code below.Below} uses {@code Top}, which uses it, and {@code Top.Inner} uses
	 * {@code Top}).
	 */
	@Test
	void aCycleFailsTheCycleRules() {
		String root = "org.poollab.cyclefixture";
		JavaClasses fixture = new ClassFileImporter().importPackages(root);
		assertThat(packagesFreeOfCycles(root).evaluate(fixture).getFailureReport().getDetails()).singleElement()
			.asString()
			.startsWith("Cycle detected: Slice (top) -> ")
			.contains("Slice below -> ", "Top.below()", "Below.top()");
		assertThat(classesFreeOfCycles(root).evaluate(fixture).getFailureReport().getDetails()).singleElement()
			.asString()
			.startsWith("Cycle detected: Slice Beside -> ")
			.contains("Slice Top -> ", "Beside.top()", "Top.beside()")
			.doesNotContain("Inner");
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

	/**
	 * Every package under {@code root}, {@code root} itself included (as {@code (top)}),
	 * is a slice of its own, and no slice reaches itself again through the others.
	 */
	static ArchRule packagesFreeOfCycles(String root) {
		return slices().assignedFrom(new SliceAssignment() {
			@Override
			public SliceIdentifier getIdentifierOf(JavaClass type) {
				String name = type.getPackageName();
				if (name.equals(root)) {
					return SliceIdentifier.of("(top)");
				}
				return name.startsWith(root + ".") ? SliceIdentifier.of(name.substring(root.length() + 1))
						: SliceIdentifier.ignore();
			}

			@Override
			public String getDescription() {
				return root + " and every package under it";
			}
		}).should().beFreeOfCycles();
	}

	/**
	 * Every top-level class of the package {@code name} is a slice of its own, its nested
	 * classes with it, and no slice reaches itself again through the others: no two
	 * classes there use each other, directly or round a longer way.
	 */
	static ArchRule classesFreeOfCycles(String name) {
		return slices().assignedFrom(new SliceAssignment() {
			@Override
			public SliceIdentifier getIdentifierOf(JavaClass type) {
				if (!type.getPackageName().equals(name)) {
					return SliceIdentifier.ignore();
				}
				String outermost = type.getName().substring(name.length() + 1).split("\\$")[0];
				return SliceIdentifier.of(outermost);
			}

			@Override
			public String getDescription() {
				return "the classes of " + name;
			}
		}).should().beFreeOfCycles();
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
