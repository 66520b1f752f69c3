package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import org.poollab.bench.text.Durations;

/**
 * The SLO report's charts as static SVG: a curve (the queue model's p99, the fitted
 * Universal Scalability Law) with the measured points on it and an optional objective
 * line. Written out because it is a polyline and circles, and the SLO page needs no
 * charting script.
 */
final class SloChart {

	/** Points of the drawn curve. */
	static final int CURVE_POINTS = 40;

	private SloChart() {
	}

	/**
	 * A line chart of a curve over 1..{@code largestX} with measured points on it.
	 * @param objective a horizontal line, or NaN for none
	 */
	static String svg(String id, String xLabel, String yLabel, int largestX, DoubleUnaryOperator curve,
			List<double[]> measured, double objective) {
		return svg(id, xLabel, yLabel, largestX, curve, measured, new Marks(objective, Double.NaN));
	}

	/**
	 * A horizontal line at {@code objective} and a vertical one at {@code x} (the USL's
	 * N*), each NaN for none.
	 */
	record Marks(double objective, double x) {
	}

	/**
	 * The same, with the lines of {@code marks}.
	 */
	static String svg(String id, String xLabel, String yLabel, int largestX, DoubleUnaryOperator curve,
			List<double[]> measured, Marks marks) {
		double objective = marks.objective();
		double markX = marks.x();
		int width = 640;
		int height = 300;
		int left = 60;
		int bottom = 40;
		List<double[]> line = line(largestX, curve);
		double top = 0;
		for (double[] point : line) {
			top = Math.max(top, point[1]);
		}
		for (double[] point : measured) {
			top = Math.max(top, point[1]);
		}
		if (Double.isFinite(objective)) {
			top = Math.max(top, objective);
		}
		top = (top > 0) ? top * 1.1 : 1;
		double yTop = top;
		DoubleUnaryOperator px = (x) -> left + (width - left - 10) * (x - 1) / Math.max(1, largestX - 1);
		DoubleUnaryOperator py = (y) -> height - bottom - (height - bottom - 10) * Math.min(y, yTop) / yTop;
		StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
				"<svg id=\"%s\" role=\"img\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">%n", id, width, height,
				width, height));
		svg.append(String.format(Locale.ROOT,
				"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/><line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
				left, height - bottom, width - 10, height - bottom, left, left, height - bottom));
		svg.append(String.format(Locale.ROOT,
				"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s (1 to %d)</text><text x=\"12\" y=\"20\">%s (0 to %s)</text>%n",
				width / 2, height - 8, xLabel, largestX, yLabel, Durations.ms(Math.round(top))));
		if (Double.isFinite(objective)) {
			svg.append(String.format(Locale.ROOT,
					"<line class=\"objective\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#c33\" stroke-dasharray=\"6 4\"/>%n",
					left, py.applyAsDouble(objective), width - 10, py.applyAsDouble(objective)));
		}
		if (Double.isFinite(markX) && markX >= 1 && markX <= largestX) {
			svg.append(String.format(Locale.ROOT,
					"<line class=\"peak\" x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" stroke-dasharray=\"3 3\"><title>N* %s</title></line>%n",
					px.applyAsDouble(markX), px.applyAsDouble(markX), height - bottom,
					Durations.ms(Math.round(markX))));
		}
		svg.append("<polyline class=\"model\" fill=\"none\" stroke=\"#27a\" stroke-width=\"2\" points=\"");
		for (double[] point : line) {
			svg.append(
					String.format(Locale.ROOT, "%.1f,%.1f ", px.applyAsDouble(point[0]), py.applyAsDouble(point[1])));
		}
		svg.append("\"/>\n");
		for (double[] point : measured) {
			svg.append(String.format(Locale.ROOT,
					"<circle class=\"measured\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#e80\"><title>%s %s: %s</title></circle>%n",
					px.applyAsDouble(point[0]), py.applyAsDouble(point[1]), xLabel, Durations.ms(point[0]),
					Durations.ms(point[1])));
		}
		return svg.append("</svg>\n").toString();
	}

	/**
	 * The curve at {@code CURVE_POINTS} + 1 evenly spaced x from 1 to {@code largestX}.
	 */
	private static List<double[]> line(int largestX, DoubleUnaryOperator curve) {
		List<double[]> line = new ArrayList<>();
		for (int i = 0; i <= CURVE_POINTS; i++) {
			double x = 1 + (largestX - 1) * i / (double) CURVE_POINTS;
			double y = curve.applyAsDouble(x);
			if (Double.isFinite(y)) {
				line.add(new double[] { x, y });
			}
		}
		return line;
	}

}
