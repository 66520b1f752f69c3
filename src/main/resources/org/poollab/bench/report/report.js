// Hands each chart's data (CHARTS, written by HtmlReport) to Chartist and sets its axes.
// Latency charts switch to a log scale when values span more than 20x: one saturated
// point would otherwise press every healthy point flat against the axis. A point with a
// 95 % interval (low, high) gets an error bar through it.
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

  CHARTS.forEach(function (chart) {
    var values = [];
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
      return {
        name: series.name,
        colour: series.colour,
        failed: series.failed,
        bars: series.data.map(function (point) {
          return (point !== null && point.low !== undefined && point.low > 0) ? { low: point.low, high: point.high } : null;
        }),
        data: series.data.map(function (point) {
          return (point === null) ? null : { value: log ? Math.log10(point.value) : point.value, meta: point.meta };
        })
      };
    });
    var axisY = log ? logAxis(min, max) : {
      low: 0,
      onlyInteger: chart.integer,
      labelInterpolationFnc: format
    };
    var element = document.getElementById(chart.id);
    if (log) {
      element.parentNode.querySelector('.scale').textContent = ', log scale';
    }
    new Chartist.Line(element, { labels: chart.labels, series: series }, {
      height: '260px',
      fullWidth: true,
      lineSmooth: false,
      chartPadding: { top: 15, right: 25, bottom: 5, left: 5 },
      axisY: axisY
    }).on('draw', function (data) {
      if (data.type !== 'line' && data.type !== 'point') {
        return;
      }
      // The series' colour comes with the data (the legend has the same), so any number
      // of rates gets distinct colours, not only the ones a stylesheet names.
      var stroke = 'stroke: ' + data.series.colour;
      if (data.type === 'line') {
        data.element.attr({ style: stroke });
        return;
      }
      var point = data.element;
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
