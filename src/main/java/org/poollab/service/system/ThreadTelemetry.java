package org.poollab.service.system;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * What runs the service's requests, as the lab reads it back: {@value #VIRTUAL_METRIC} is
 * 1 when Spring Boot runs them on virtual threads ({@code spring.threads.virtual.enabled}
 * on Java 21 or later: Boot's own {@link Threading#VIRTUAL} decision), else 0; and
 * {@value #PINNED_METRIC} counts the times a virtual thread stayed pinned to its carrier
 * while it blocked.
 * <p>
 * A pinned virtual thread keeps its carrier (one of as many as there are cores) while it
 * waits: with a pool wait on the request path, a few pinned requests would stall every
 * other one, and the measurement would be of the pinning, not of the pool. JFR's
 * {@code jdk.VirtualThreadPinned} event reports each pin; it is recorded with no
 * threshold (its default, 20 ms, and Micrometer's {@code VirtualThreadMetrics}, which
 * keeps it, would hide the short pins a pool wait makes, and Micrometer's
 * {@code micrometer-java21} does not resolve at the version Boot manages), and the first
 * pin of each distinct top frame is logged with its stack, so a count above zero says
 * where.
 * <p>
 * The recording runs on every JVM that has virtual threads, platform threads or not, so
 * that both thread models pay its (small) cost alike.
 */
@Component
public class ThreadTelemetry implements DisposableBean {

	/** 1: requests run on virtual threads; 0: on Tomcat's platform threads. */
	public static final String VIRTUAL_METRIC = "lab.request.threads.virtual";

	/** JFR {@code jdk.VirtualThreadPinned} events since start. */
	public static final String PINNED_METRIC = "lab.virtual.threads.pinned";

	/**
	 * 1 when the thread reading the metrics (the actuator's, at each scrape) is a virtual
	 * one: telemetry then queues with the requests ({@code ManagementThreads} keeps it
	 * 0).
	 */
	public static final String SCRAPE_THREAD_VIRTUAL_METRIC = "lab.scrape.thread.virtual";

	/** {@link #PINNED_METRIC} as Prometheus exposes it. */
	public static final String PINNED_PROMETHEUS_NAME = "lab_virtual_threads_pinned_total";

	private static final String PINNED_EVENT = "jdk.VirtualThreadPinned";

	/** The release that made virtual threads final (JEP 444). */
	private static final int FIRST_VIRTUAL_THREADS_RELEASE = 21;

	/** Stack frames logged per distinct pin. */
	private static final int FRAMES_LOGGED = 12;

	private static final Logger logger = LoggerFactory.getLogger(ThreadTelemetry.class);

	private final @Nullable RecordingStream pins;

	ThreadTelemetry(Environment environment, MeterRegistry registry) {
		boolean virtual = Threading.VIRTUAL.isActive(environment);
		Gauge.builder(VIRTUAL_METRIC, () -> virtual ? 1 : 0)
			.description("1 when requests run on virtual threads, 0 on platform threads")
			.register(registry);
		Gauge.builder(SCRAPE_THREAD_VIRTUAL_METRIC, () -> isVirtual(Thread.currentThread()) ? 1 : 0)
			.description("1 when the thread reading this metric is a virtual thread")
			.register(registry);
		this.pins = (Runtime.version().feature() >= FIRST_VIRTUAL_THREADS_RELEASE) ? recordPins(registry) : null;
	}

	/**
	 * {@code Thread.isVirtual()}, which the service cannot call directly: it is built for
	 * Java 17, where the method does not exist (and no thread is virtual).
	 */
	private static boolean isVirtual(Thread thread) {
		if (IS_VIRTUAL == null) {
			return false;
		}
		try {
			return (boolean) IS_VIRTUAL.invokeExact(thread);
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Thread.isVirtual failed", ex);
		}
	}

	private static final @Nullable MethodHandle IS_VIRTUAL = isVirtualHandle();

	private static @Nullable MethodHandle isVirtualHandle() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (NoSuchMethodException | IllegalAccessException ex) {
			return null;
		}
	}

	private static RecordingStream recordPins(MeterRegistry registry) {
		Counter pinned = Counter.builder(PINNED_METRIC)
			.description("Times a virtual thread blocked while pinned to its carrier (JFR jdk.VirtualThreadPinned)")
			.register(registry);
		Set<String> logged = ConcurrentHashMap.newKeySet();
		RecordingStream stream = new RecordingStream();
		stream.enable(PINNED_EVENT).withThreshold(Duration.ZERO).withStackTrace();
		stream.onEvent(PINNED_EVENT, (event) -> {
			pinned.increment();
			String where = topFrame(event);
			if (logged.add(where)) {
				logger.warn("A virtual thread blocked for {} us while pinned to its carrier, at:{}",
						event.getDuration().toNanos() / 1000, stack(event));
			}
		});
		stream.startAsync();
		return stream;
	}

	private static String topFrame(RecordedEvent event) {
		if (event.getStackTrace() == null || event.getStackTrace().getFrames().isEmpty()) {
			return "(no stack)";
		}
		RecordedFrame top = event.getStackTrace().getFrames().get(0);
		return top.getMethod().getType().getName() + "." + top.getMethod().getName();
	}

	private static String stack(RecordedEvent event) {
		if (event.getStackTrace() == null) {
			return " (no stack)";
		}
		StringBuilder text = new StringBuilder();
		event.getStackTrace()
			.getFrames()
			.stream()
			.limit(FRAMES_LOGGED)
			.forEach((frame) -> text.append(System.lineSeparator())
				.append("\tat ")
				.append(frame.getMethod().getType().getName())
				.append('.')
				.append(frame.getMethod().getName())
				.append(':')
				.append(frame.getLineNumber()));
		return text.toString();
	}

	@Override
	public void destroy() {
		if (this.pins != null) {
			this.pins.close();
		}
	}

}
