package org.poollab;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails an integration test class ({@code *IT}) that runs longer than {@link #PER_CLASS},
 * from before its {@code @BeforeAll} to after its {@code @AfterAll}: the class then ends
 * red in Failsafe's report, and {@code verify} fails the build, naming the class, the
 * time it took and the budget. It keeps the test command's length from growing unseen: a
 * class that outgrows the budget is split, cut, or its budget raised here, on purpose.
 * <p>
 * Registered for every test class by the JUnit Jupiter's extension auto-detection
 * ({@code META-INF/services/org.junit.jupiter.api.extension.Extension} and
 * {@code junit-platform.properties}); {@code ItTimeBudgetTests} fails when either is
 * gone. There is no switch to turn it off.
 */
public final class ItTimeBudget implements BeforeAllCallback, AfterAllCallback {

	/**
	 * The longest one IT class may take, from a slow 2-core machine (Intel Xeon, KVM):
	 * the slowest class, SweepInterruptionIT, took 308 s in a quiet fresh-clone run of
	 * the whole suite (three Failsafe forks side by side) and 267 s alone beside a CPU
	 * hog ({@code stress-ng --cpu 2 --cpu-load 50}, about half the CPU left). The whole
	 * suite beside the hog runs each class slower than either; the budget leaves room for
	 * that and no more. Lower it as classes get cut; raise it only with a measurement.
	 */
	static final Duration PER_CLASS = Duration.ofSeconds(480);

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ItTimeBudget.class);

	private final Duration budget;

	private final LongSupplier nanoTime;

	private final Predicate<Class<?>> timed;

	/** The build's: {@link #PER_CLASS} for every top-level {@code *IT} class. */
	public ItTimeBudget() {
		this(PER_CLASS, System::nanoTime, ItTimeBudget::isIntegrationTest);
	}

	/**
	 * @param budget the longest a timed class may take
	 * @param nanoTime the clock
	 * @param timed which classes are held to the budget
	 */
	ItTimeBudget(Duration budget, LongSupplier nanoTime, Predicate<Class<?>> timed) {
		this.budget = budget;
		this.nanoTime = nanoTime;
		this.timed = timed;
	}

	/** A top-level class named like Failsafe's ITs ({@code *IT}). */
	static boolean isIntegrationTest(Class<?> testClass) {
		return testClass.getEnclosingClass() == null && testClass.getSimpleName().endsWith("IT");
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		if (this.timed.test(context.getRequiredTestClass())) {
			context.getStore(NAMESPACE).put(context.getRequiredTestClass(), this.nanoTime.getAsLong());
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		Class<?> testClass = context.getRequiredTestClass();
		Long startNanos = context.getStore(NAMESPACE).remove(testClass, Long.class);
		if (startNanos == null) {
			return;
		}
		Duration measured = Duration.ofNanos(this.nanoTime.getAsLong() - startNanos);
		overrun(testClass.getName(), measured, this.budget).ifPresent((message) -> {
			throw new AssertionError(message);
		});
	}

	/**
	 * What a class that took {@code measured} is told, if anything.
	 * @return the failure's message when {@code measured} exceeds {@code budget}
	 */
	static Optional<String> overrun(String className, Duration measured, Duration budget) {
		if (measured.compareTo(budget) <= 0) {
			return Optional.empty();
		}
		return Optional.of("%s took %.1f s, over the budget of %d s for one IT class (%s.PER_CLASS): cut or split it"
			.formatted(className, measured.toMillis() / 1000.0, budget.toSeconds(), ItTimeBudget.class.getName()));
	}

}
