package org.poollab.vendor;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The vendor room ({@code org.poollab.vendor}) is the one place that tells database
 * vendors apart: elsewhere a vendor is asked, never compared ({@code ==}, a
 * {@code switch}, its name), so that adding a vendor is one {@link Vendor}
 * implementation, its constant and its resources, and a branch on a vendor anywhere else
 * fails the build.
 */
class VendorRoomTests {

	static final String ROOM = "org.poollab.vendor";

	/** What the rest of the code may use of the room. */
	static final List<Class<?>> FACE = List.of(DatabaseVendor.class, EmbeddedDatabase.class, ConnectionCpu.class);

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("org.poollab");

	@Test
	void noVendorIsToldApartOutsideTheRoom() {
		noVendorConstantOutside(ROOM).check(MAIN);
		noVendorNameOrOrdinalOutside(ROOM).check(MAIN);
	}

	@Test
	void aBranchOnAVendorOutsideTheRoomFailsTheRule() {
		JavaClasses branching = new ClassFileImporter().importClasses(Branching.class);
		// The same rules with the fixture outside the room.
		EvaluationResult constants = noVendorConstantOutside(ROOM + ".elsewhere").evaluate(branching);
		EvaluationResult ordinals = noVendorNameOrOrdinalOutside(ROOM + ".elsewhere").evaluate(branching);
		assertThat(constants.getFailureReport().getDetails()).singleElement()
			.asString()
			.contains("Branching.mariadb", "DatabaseVendor.MARIADB");
		assertThat(ordinals.getFailureReport().getDetails()).singleElement()
			.asString()
			.contains("Branching.sleep", "ordinal()");
	}

	@Test
	void onlyTheRoomsFaceIsUsedOutsideIt() {
		noClasses().that()
			.resideOutsideOfPackages(ROOM + "..", "org.poollab.reactive..")
			.should()
			.dependOnClassesThat(aVendorsOwnClass())
			.because("a vendor's own classes are reached through DatabaseVendor")
			.check(MAIN);
		noClasses().that()
			.resideInAPackage("org.poollab.reactive..")
			.should()
			.dependOnClassesThat(
					aVendorsOwnClass().and(DescribedPredicate.not(belongToAnyOf(EmbeddedPostgresServer.class))))
			.because("the reactive twin runs on PostgreSQL only (DatabaseVendor.runsReactiveTwin()): its embedded "
					+ "server is PostgreSQL's")
			.check(MAIN);
	}

	@Test
	void theRoomUsesNeitherTheServicesNorTheHarness() {
		noClasses().that()
			.resideInAPackage(ROOM + "..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.poollab.service..", "org.poollab.reactive..", "org.poollab.bench..",
					"org.poollab.management..", "org.poollab.crosscheck..")
			.because("both the services and the harness use the room")
			.check(MAIN);
	}

	@Test
	void eachVendorHasItsSettingsAndMigrations() throws Exception {
		for (DatabaseVendor vendor : DatabaseVendor.values()) {
			String name = vendor.propertyValue();
			assertThat(new ClassPathResource("db/" + name + ".yml").exists()).as("db/%s.yml", name).isTrue();
			assertThat(new PathMatchingResourcePatternResolver()
				.getResources("classpath:db/migration/" + name + "/V*.sql")).as("db/migration/%s/", name).isNotEmpty();
		}
	}

	@Test
	void theDefaultVendorIsPostgresql() {
		// Results written before the lab recorded vendors are read as the default's.
		assertThat(DatabaseVendor.DEFAULT.product()).isEqualTo("PostgreSQL");
	}

	static ArchRule noVendorConstantOutside(String room) {
		Set<String> constants = Arrays.stream(DatabaseVendor.values()).map(Enum::name).collect(Collectors.toSet());
		DescribedPredicate<JavaFieldAccess> constant = DescribedPredicate.describe("a vendor's constant",
				(access) -> access.getTargetOwner().isEquivalentTo(DatabaseVendor.class)
						&& constants.contains(access.getName()));
		return noClasses().that()
			.resideOutsideOfPackage(room + "..")
			.should()
			.accessFieldWhere(constant)
			.because("a vendor is asked (DatabaseVendor's methods), not compared: add what differs to Vendor");
	}

	/** A {@code switch} on a vendor compiles to its {@code ordinal()}. */
	static ArchRule noVendorNameOrOrdinalOutside(String room) {
		Set<String> methods = Set.of("name", "ordinal", "valueOf", "compareTo");
		DescribedPredicate<JavaMethodCall> call = DescribedPredicate.describe("a vendor's name or ordinal",
				(access) -> access.getTargetOwner().isEquivalentTo(DatabaseVendor.class)
						&& methods.contains(access.getName()));
		return noClasses().that()
			.resideOutsideOfPackage(room + "..")
			.should()
			.callMethodWhere(call)
			.because("a vendor is asked (DatabaseVendor's methods), not compared: add what differs to Vendor");
	}

	private static DescribedPredicate<JavaClass> aVendorsOwnClass() {
		return resideInAPackage(ROOM + "..").and(DescribedPredicate.not(belongToAnyOf(FACE.toArray(Class[]::new))))
			.as("a vendor's own class (not DatabaseVendor, EmbeddedDatabase or ConnectionCpu)");
	}

	/** What the rules must catch. */
	static final class Branching {

		static boolean mariadb(DatabaseVendor vendor) {
			return vendor == DatabaseVendor.MARIADB;
		}

		static String sleep(DatabaseVendor vendor) {
			switch (vendor) {
				case POSTGRESQL:
					return "SELECT pg_sleep(?)";
				default:
					return "SELECT SLEEP(?)";
			}
		}

	}

}
