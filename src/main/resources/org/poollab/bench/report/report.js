// Hands each chart's data (CHARTS, written by HtmlReport) to Chartist and sets its axes.
// Pool sizes lie on a log scale (1, 2, 5, 10, 20, 50 are evenly spread, as a knee is
// judged); no pool at all sits one step left of the smallest. Latency charts switch
// their y axis to a log scale when values span more than 20x: one saturated point would
// otherwise press every healthy point flat against the axis. A point with a 95 %
// interval (low, high) gets an error bar through it; the p99 objective is a dashed line
// and the chosen pool size a vertical one.
(function () {
  function format(value) {
    if (value >= 100) {
      return value.toFixed(0);
    }
    return String(Number(value.toPrecision(2)));
  }

  // 1-2-5 ticks from just below the smallest value to just above the largest, in log10 units.
  function logAxis(min, max) {
    // fewer ticks per decade as the range grows, so labels never crowd
    var decades = Math.log10(max / min);
    var mantissas = (decades <= 1.3) ? [1, 2, 5] : (decades <= 2.5) ? [1, 3] : [1];
    var ticks = [];
    for (var exponent = Math.floor(Math.log10(min)); exponent <= Math.ceil(Math.log10(max)); exponent++) {
      mantissas.forEach(function (mantissa) {
        ticks.push(mantissa * Math.pow(10, exponent));
      });
    }
    var low = ticks.filter(function (tick) { return tick <= min; }).pop();
    var high = ticks.filter(function (tick) { return tick >= max; })[0];
    return {
      type: Chartist.FixedScaleAxis,
      ticks: ticks.filter(function (tick) { return tick >= low && tick <= high; }).map(Math.log10),
      low: Math.log10(low),
      high: Math.log10(high),
      labelInterpolationFnc: function (value) { return format(Math.pow(10, value)); }
    };
  }

  // Where each pool size sits on the x axis, in log10 units.
  function positions(poolSizes) {
    var pooled = poolSizes.filter(function (size) { return size > 0; });
    var smallest = pooled.length ? Math.min.apply(null, pooled) : 1;
    return poolSizes.map(function (size) { return Math.log10(size > 0 ? size : smallest / 2); });
  }

  CHARTS.forEach(function (chart) {
    // Explicit x values (seconds of a window) or pool sizes on their log scale.
    var xs = chart.xValues ? chart.xValues : positions(chart.poolSizes);
    var values = [];
    if (chart.objective !== undefined) {
      values.push(chart.objective);
    }
    chart.series.forEach(function (series) {
      series.data.forEach(function (point) {
        if (point !== null) {
          values.push(point.value);
          if (point.low !== undefined && point.low > 0) {
            values.push(point.low, point.high);
          }
        }
      });
    });
    var min = Math.min.apply(null, values);
    var max = Math.max.apply(null, values);
    var log = chart.logScaleAllowed && min > 0 && max / min > 20;
    var series = chart.series.map(function (series) {
      // Points with x and y; a pool size not measured at this rate is left out (the line
      // joins its neighbours), so every per-point array is indexed like the data.
      var kept = [];
      series.data.forEach(function (point, i) {
        if (point !== null) {
          kept.push({ point: point, x: xs[i], failed: series.failed[i] });
        }
      });
      return {
        name: series.name,
        colour: series.colour,
        model: series.model === true,
        failed: kept.map(function (k) { return k.failed; }),
        bars: kept.map(function (k) {
          return (k.point.low !== undefined && k.point.low > 0) ? { low: k.point.low, high: k.point.high } : null;
        }),
        data: kept.map(function (k) {
          return { x: k.x, y: log ? Math.log10(k.point.value) : k.point.value, meta: k.point.meta };
        })
      };
    });
    var spread = xs.length > 1 ? (Math.max.apply(null, xs) - Math.min.apply(null, xs)) : 1;
    var axisX = {
      type: Chartist.FixedScaleAxis,
      ticks: xs,
      low: Math.min.apply(null, xs) - 0.04 * spread,
      high: Math.max.apply(null, xs) + 0.04 * spread,
      labelInterpolationFnc: function (value) {
        var i = xs.indexOf(value);
        return i < 0 ? '' : chart.labels[i];
      }
    };
    var axisY = log ? logAxis(min, max) : {
      low: 0,
      onlyInteger: chart.integer,
      labelInterpolationFnc: format
    };
    var element = document.getElementById(chart.id);
    if (log) {
      element.parentNode.querySelector('.scale').textContent = ', log scale';
    }
    new Chartist.Line(element, { series: series }, {
      height: '260px',
      fullWidth: true,
      lineSmooth: false,
      chartPadding: { top: 15, right: 25, bottom: 5, left: 5 },
      axisX: axisX,
      axisY: axisY
    }).on('created', function (data) {
      var rect = data.chartRect;
      if (chart.objective !== undefined) {
        var y = rect.y1 - data.axisY.projectValue(log ? Math.log10(chart.objective) : chart.objective);
        data.svg.elem('line', { x1: rect.x1, x2: rect.x2, y1: y, y2: y }, 'ct-objective');
        data.svg.elem('text', { x: rect.x2 - 4, y: y - 4, 'text-anchor': 'end' }, 'ct-objective-label')
          .text('objective ' + format(chart.objective) + ' ms');
      }
      var chosen = chart.poolSizes ? chart.poolSizes.indexOf(chart.chosen) : -1;
      if (chosen >= 0) {
        var x = rect.x1 + data.axisX.projectValue(xs[chosen]);
        data.svg.elem('line', { x1: x, x2: x, y1: rect.y1, y2: rect.y2 }, 'ct-chosen');
      }
    }).on('draw', function (data) {
      if (data.type !== 'line' && data.type !== 'point') {
        return;
      }
      // The series' colour comes with the data (the legend has the same), so any number
      // of rates gets distinct colours, not only the ones a stylesheet names.
      var stroke = 'stroke: ' + data.series.colour;
      if (data.type === 'line') {
        // The queueing model's prediction: dashed, beside the measured line.
        data.element.attr({ style: stroke + (data.series.model ? '; stroke-dasharray: 6 4; stroke-width: 1.5px' : '') });
        return;
      }
      var point = data.element;
      if (data.series.model) {
        point.attr({ style: stroke + '; stroke-width: 5px; opacity: 0.6' });
        point.elem('title').text(data.meta);
        return;
      }
      if (data.series.failed && data.series.failed[data.index]) {
        // Chartist's documented way to restyle a point: replace its element.
        point = new Chartist.Svg('circle', { cx: data.x, cy: data.y, r: 5 }, 'ct-point ct-point-failed');
        data.element.replace(point);
      }
      point.attr({ style: stroke });
      point.elem('title').text(data.meta);
      var bar = data.series.bars && data.series.bars[data.index];
      if (bar) {
        var y = function (value) {
          return data.axisY.chartRect.y1 - data.axisY.projectValue(log ? Math.log10(value) : value);
        };
        var line = new Chartist.Svg('line', { x1: data.x, x2: data.x, y1: y(bar.low), y2: y(bar.high) },
          'ct-error-bar');
        line.attr({ style: stroke + '; stroke-width: 1.5px' });
        data.group.append(line);
      }
    });
  });
})();
