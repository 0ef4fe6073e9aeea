// The live page: reads live/layout once, then live/data once a second, keeps the last five minutes in the browser and
// draws them with uPlot. Counts that only grow are drawn as their increase per second between two reads.
(function () {
  'use strict';

  var WINDOW_SECONDS = 300;
  var PERIOD_MS = 1000;
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f'];

  var status = document.getElementById('status');
  var container = document.getElementById('charts');
  var charts = [];      // {section, plot, lines: [{index, kind, value, item}]}
  var times = [];       // seconds since the epoch, one per read
  var columns = [];     // per line of the layout: the numbers drawn, aligned with times
  var previous = null;  // the last read: {time, values}

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function format(number, kind) {
    if (number === null || number === undefined) { return '–'; }
    if (kind === 'PER_SECOND') { return number < 10 ? number.toFixed(1) : Math.round(number).toLocaleString('en'); }
    return Math.round(number).toLocaleString('en');
  }

  function clock(seconds) {
    return new Date(seconds * 1000).toLocaleTimeString('en-GB');
  }

  function plotWidth() {
    return Math.max(320, Math.min(760, container.clientWidth - 520));
  }

  function build(layout) {
    var index = 0;
    layout.charts.forEach(function (chart, chartIndex) {
      var section = element('section', 'chart');
      section.dataset.chart = String(chartIndex);
      section.dataset.points = '0';
      section.appendChild(element('h2', null, chart.title + ' (' + chart.unit + ')'));
      var about = element('p', 'about', chart.about + ' Explained in: ');
      var pages = [];
      chart.series.forEach(function (line) { if (pages.indexOf(line.page) < 0) { pages.push(line.page); } });
      pages.forEach(function (page, i) {
        var link = element('a', null, page);
        link.href = 'live/docs/' + page;
        if (i > 0) { about.appendChild(document.createTextNode(', ')); }
        about.appendChild(link);
      });
      about.appendChild(document.createTextNode('.'));
      section.appendChild(about);

      var row = element('div', 'row');
      var plotHolder = element('div', 'plot');
      var now = element('ul', 'now');
      now.setAttribute('aria-label', 'current values: ' + chart.title);
      var lines = [];
      var series = [{}];
      chart.series.forEach(function (line, i) {
        var color = COLORS[i % COLORS.length];
        var item = element('li');
        item.dataset.metric = line.metric;
        var swatch = element('span', 'swatch');
        swatch.style.background = color;
        item.appendChild(swatch);
        item.appendChild(document.createTextNode(line.label + ': '));
        var value = element('span', 'value', '–');
        item.appendChild(value);
        item.appendChild(element('span', 'unit', ' ' + (line.kind === 'PER_SECOND' ? 'per second' : chart.unit)));
        item.appendChild(element('span', 'metric', line.metric + (line.kind === 'PER_SECOND' ? ' (increase per second)' : '')));
        now.appendChild(item);
        lines.push({index: index, kind: line.kind, value: value, item: item});
        series.push({label: line.label, stroke: color, width: 1.5});
        columns.push([]);
        index += 1;
      });
      row.appendChild(plotHolder);
      row.appendChild(now);
      section.appendChild(row);
      container.appendChild(section);

      var plot = new uPlot({
        width: plotWidth(),
        height: 220,
        legend: {show: false},
        cursor: {show: true},
        scales: {x: {time: true}, y: {range: function (u, min, max) { return [0, Math.max(1, max * 1.1)]; }}},
        axes: [{space: 90, values: function (u, ticks) { return ticks.map(clock); }}, {label: chart.unit, size: 70}],
        series: series
      }, [[]].concat(lines.map(function () { return []; })), plotHolder);
      charts.push({section: section, plot: plot, lines: lines});
    });
  }

  function drawn(values, i, kind, time) {
    var value = values[i];
    if (value === null || value === undefined) { return null; }
    if (kind !== 'PER_SECOND') { return value; }
    if (previous === null || previous.values[i] === null || time <= previous.time) { return null; }
    return Math.max(0, (value - previous.values[i]) / (time - previous.time));
  }

  function add(data) {
    var time = data.time / 1000;
    times.push(time);
    charts.forEach(function (chart) {
      chart.lines.forEach(function (line) {
        columns[line.index].push(drawn(data.values, line.index, line.kind, time));
      });
    });
    previous = {time: time, values: data.values};
    while (times.length > 0 && times[0] < time - WINDOW_SECONDS) {
      times.shift();
      columns.forEach(function (column) { column.shift(); });
    }
    charts.forEach(function (chart) {
      chart.plot.setData([times.slice()].concat(chart.lines.map(function (line) { return columns[line.index].slice(); })));
      chart.lines.forEach(function (line) {
        var registered = data.values[line.index] !== null;
        var column = columns[line.index];
        line.value.textContent = registered ? format(column[column.length - 1], line.kind) : 'not registered';
        line.item.classList.toggle('absent', !registered);
      });
      chart.section.dataset.points = String(times.length);
    });
    status.textContent = 'Updated ' + clock(time) + ', ' + times.length
        + ' reads shown (one per second, the last five minutes).';
    status.className = '';
  }

  function failing(what) {
    status.textContent = 'Cannot read ' + what + ' from this instance; retrying every second.';
    status.className = 'failing';
  }

  function read() {
    fetch('live/data', {cache: 'no-store'})
      .then(function (response) {
        if (!response.ok) { throw new Error('HTTP ' + response.status); }
        return response.json();
      })
      .then(add, function () { failing('live/data'); });
  }

  window.addEventListener('resize', function () {
    charts.forEach(function (chart) { chart.plot.setSize({width: plotWidth(), height: 220}); });
  });

  function start() {
    fetch('live/layout', {cache: 'no-store'})
      .then(function (response) {
        if (!response.ok) { throw new Error('HTTP ' + response.status); }
        return response.json();
      })
      .then(function (layout) {
        build(layout);
        read();
        window.setInterval(read, PERIOD_MS);
      }, function () {
        failing('live/layout');
        window.setTimeout(start, PERIOD_MS);
      });
  }

  start();
}());
