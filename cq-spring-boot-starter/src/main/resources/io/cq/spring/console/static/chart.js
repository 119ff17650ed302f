// Small SVG line charts of the last minutes, drawn with DOM calls (createElementNS, textContent): no markup strings.
const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 180;
const HEIGHT = 40;
const TOP = 10;

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    element.setAttribute(name, String(value));
  }
  return element;
}

function format(value) {
  if (value === null || value === undefined) {
    return '–';
  }
  return value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(value >= 10 ? 1 : 2);
}

/**
 * One chart of several series over the same sample times; a null value leaves a gap. The scale starts at 0 and ends
 * at the largest value shown, written in the corner; hovering gives the latest value of each series.
 */
export function sparkline(series, times) {
  const chart = svg('svg', { class: 'chart', width: WIDTH, height: HEIGHT + TOP, viewBox: `0 0 ${WIDTH} ${HEIGHT + TOP}`,
    role: 'img' });
  const values = series.flatMap(s => s.values).filter(v => v !== null && v !== undefined);
  const max = Math.max(1, ...values);
  const first = times.length ? times[0] : 0;
  const span = times.length > 1 ? times[times.length - 1] - first : 1;
  chart.appendChild(svg('line', { x1: 0, y1: TOP + HEIGHT, x2: WIDTH, y2: TOP + HEIGHT, class: 'axis' }));
  for (const s of series) {
    let points = [];
    const flush = () => {
      if (points.length > 1) {
        chart.appendChild(svg('polyline', { points: points.join(' '), class: 'line ' + s.class }));
      } else if (points.length === 1) {
        const [x, y] = points[0].split(',');
        chart.appendChild(svg('circle', { cx: x, cy: y, r: 1.5, class: 'dot ' + s.class }));
      }
      points = [];
    };
    s.values.forEach((value, i) => {
      if (value === null || value === undefined) {
        flush();
        return;
      }
      const x = ((times[i] - first) / span) * WIDTH;
      const y = TOP + HEIGHT - (value / max) * HEIGHT;
      points.push(x.toFixed(1) + ',' + y.toFixed(1));
    });
    flush();
  }
  const label = svg('text', { x: 2, y: 8, class: 'scale' });
  label.textContent = 'max ' + format(max);
  chart.appendChild(label);
  const minutes = times.length > 1 ? Math.round(span / 60000 * 10) / 10 : 0;
  const title = svg('title');
  title.textContent = series.map(s => s.name + ' ' + format(lastOf(s.values))).join(', ')
    + (minutes ? ' (now; the chart spans ' + minutes + ' min)' : ' (waiting for samples)');
  chart.appendChild(title);
  return chart;
}

function lastOf(values) {
  for (let i = values.length - 1; i >= 0; i--) {
    if (values[i] !== null && values[i] !== undefined) {
      return values[i];
    }
  }
  return null;
}
