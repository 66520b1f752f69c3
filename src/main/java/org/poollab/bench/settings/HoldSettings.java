package org.poollab.bench.settings;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;

import org.poollab.bench.grid.HoldTimeFrom;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.settings.BenchProperties.Hold;
import org.poollab.service.hold.HoldPlace;
import org.poollab.service.hold.HoldTime;

/**
 * The hold every instance emulates, from {@code bench.holdTime},
 * {@code bench.holdTimeFrom}, {@code bench.holdPlace}, {@code bench.holdCpu} or the
 * preset, checked before anything starts.
 */
final class HoldSettings {

	private HoldSettings() {
	}

	/**
	 * The hold every instance emulates: {@code bench.holdTimeFrom}'s,
	 * {@code bench.holdTime} or the preset's; {@code null} for none.
	 * @throws BenchSettingException for both sources at once, a hold the lab cannot
	 * emulate, an exposition that does not answer or has no usage series, or a place
	 * without a hold
	 */
	static @Nullable EmulatedHold hold(Hold settings, Preset preset) {
		EmulatedHold waiting = waitingHold(settings, preset);
		Double cpuMs = (settings.holdCpu() != null) ? Double.valueOf(settings.holdCpu().toNanos() / 1e6)
				: preset.cpuHoldMs();
		if (cpuMs == null) {
			return waiting;
		}
		String source = (settings.holdCpu() != null) ? "bench.holdCpu" : "bench.preset=" + preset.label();
		return (waiting != null) ? waiting.withCpu(cpuMs, source) : EmulatedHold.cpu(cpuMs, source);
	}

	private static @Nullable EmulatedHold waitingHold(Hold settings, Preset preset) {
		HoldPlace place = Objects.requireNonNullElse(settings.holdPlace(), HoldPlace.DATABASE);
		if (settings.holdTime() != null && settings.holdTimeFrom() != null) {
			throw new BenchSettingException(
					"bench.holdTime and bench.holdTimeFrom=%s are both set: use one, the hold you give or the one read from your metrics. Nothing was started."
						.formatted(settings.holdTimeFrom()));
		}
		Duration window = window(settings.holdTimeFromWindow());
		if (settings.holdTimeFrom() != null && settings.holdTimeFromWindow() != null
				&& HoldTimeFrom.fromPrometheusServer(settings.holdTimeFrom())) {
			throw new BenchSettingException(
					"bench.holdTimeFromWindow=%s is not allowed with bench.holdTimeFrom=%s: a Prometheus server is read over the range its source names (range=10m); leave bench.holdTimeFromWindow unset. Nothing was started."
						.formatted(settings.holdTimeFromWindow(), settings.holdTimeFrom()));
		}
		if (settings.holdTimeFrom() != null) {
			HoldTimeFrom.Read read = HoldTimeFrom.read(settings.holdTimeFrom(),
					(settings.holdTimeFromWindow() != null) ? window : HoldTimeFrom.DEFAULT_WINDOW,
					settings.holdTimeFromUri(), System.out::println);
			return read.emulated(place, "bench.holdTimeFrom: " + read.description());
		}
		if (settings.holdTime() != null) {
			return EmulatedHold.of(requireHoldTime(settings.holdTime()), place, "bench.holdTime");
		}
		if (preset.hold() != null) {
			return EmulatedHold.of(preset.hold(), place, "bench.preset=" + preset.label());
		}
		if (settings.holdPlace() != null) {
			throw new BenchSettingException(
					"bench.holdPlace=%s needs a hold to place, and bench.preset=%s has none: add bench.holdTime (e.g. 10ms) or bench.holdTimeFrom, or leave bench.holdPlace unset. Nothing was started."
						.formatted(place.value(), preset.label()));
		}
		return null;
	}

	/**
	 * {@code bench.holdTimeFromWindow}: {@code null} for one scrape ({@code lifetime}) or
	 * when unset.
	 * @throws BenchSettingException for anything else than lifetime or 1s to 1h
	 */
	static @Nullable Duration window(@Nullable String written) {
		if (written == null || written.trim().equalsIgnoreCase(HoldTimeFrom.LIFETIME)) {
			return null;
		}
		Duration window;
		try {
			window = DurationStyle.detectAndParse(written.trim(), ChronoUnit.SECONDS);
		}
		catch (IllegalArgumentException ex) {
			window = null;
		}
		if (window == null || window.compareTo(Duration.ofSeconds(1)) < 0
				|| window.compareTo(Duration.ofHours(1)) > 0) {
			throw new BenchSettingException(
					BenchSetting.HOLD_TIME_FROM_WINDOW.refusal(written, null) + " Nothing was started.");
		}
		return window;
	}

	/**
	 * {@code bench.holdTime} as a hold.
	 * @throws BenchSettingException naming the value and what is allowed
	 */
	private static HoldTime requireHoldTime(List<Duration> holdTime) {
		String written = String.join(",", holdTime.stream().map(HoldSettings::millis).toList());
		if (holdTime.isEmpty() || holdTime.size() > 2) {
			throw new BenchSettingException(BenchSetting.HOLD_TIME.refusal(written, null) + " Nothing was started.");
		}
		try {
			return HoldTime.of(holdTime.get(0), (holdTime.size() == 2) ? holdTime.get(1) : null);
		}
		catch (IllegalArgumentException ex) {
			throw new BenchSettingException("%s=%s is not allowed: %s; use %s. Nothing was started.".formatted(
					BenchSetting.HOLD_TIME.property(), written, ex.getMessage(), BenchSetting.HOLD_TIME.allowed()));
		}
	}

	/**
	 * A duration as a setting is written, in milliseconds: {@code 10ms}, {@code 0.5ms}.
	 */
	static String millis(Duration duration) {
		double ms = duration.toNanos() / 1e6;
		return ((ms == Math.rint(ms)) ? String.valueOf((long) ms) : String.valueOf(ms)) + "ms";
	}

}
