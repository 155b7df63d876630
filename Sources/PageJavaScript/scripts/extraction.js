// Reads an extraction in the document: `spec` is {items, fields}, each field [name, {selector, attribute, as, all}
// or a nested {items, fields}, required]. CSS selectors go to querySelector(All), `xpath:` ones to
// document.evaluate, and `.` is the item itself. The value is the list of items (null in place of an item that
// lacks a required field), or with no `items`, the one object (null while every field is missing or empty).
(spec) => {
  const clean = (text) => String(text ?? "").replace(/\s+/g, " ").trim();
  const absolute = (value) => { try { return new URL(value, document.baseURI).href; } catch { return value; } };
  const find = (root, selector, all) => {
    if (selector === ".") return [root];
    if (selector.startsWith("xpath:")) {
      const found = document.evaluate(selector.slice(6), root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      const nodes = [];
      for (let index = 0; index < found.snapshotLength && (all || index < 1); index++) nodes.push(found.snapshotItem(index));
      return nodes;
    }
    return all ? Array.from(root.querySelectorAll(selector)) : [root.querySelector(selector)].filter((node) => node);
  };
  const read = (node, field) => {
    let value;
    if (node.nodeType === 2) {
      value = ["href", "src", "action"].includes(node.name) ? absolute(node.value) : node.value;
    } else if (field.attribute) {
      value = node.getAttribute?.(field.attribute) ?? null;
      if (value !== null && ["href", "src", "action"].includes(field.attribute)) value = absolute(value);
    } else {
      value = field.as === "html" && node.nodeType === 1 ? node.innerHTML : clean(node.textContent);
    }
    if (value === null) return null;
    if (field.as === "number") {
      const match = String(value).replace(/,/g, "").match(/-?\d+(\.\d+)?/);
      return match ? Number(match[0]) : null;
    }
    return field.as === "url" ? absolute(value) : value;
  };
  const empty = (value) => value === null || value === "" || (Array.isArray(value) && value.length === 0);
  const fieldsOf = (root, fields) => {
    const item = {};
    for (const [name, field, required] of fields) {
      let value;
      if (field.fields) {
        value = listOf(root, field);
      } else {
        const nodes = find(root, field.selector, field.all || field.as === "bool");
        value = field.as === "bool" ? nodes.length > 0
          : field.all ? nodes.map((node) => read(node, field)).filter((value) => !empty(value))
          : nodes.length ? read(nodes[0], field) : null;
      }
      if (required && empty(value)) return null;
      item[name] = value;
    }
    return item;
  };
  // A nested list leaves out its items that lack a required field; the top list has null in their place, which
  // webparse counts and takes out.
  const listOf = (root, extraction, marksLeftOut) => {
    const items = find(root, extraction.items, true).map((node) => fieldsOf(node, extraction.fields));
    return marksLeftOut ? items : items.filter((item) => item !== null);
  };
  // One object of the whole document is there once one of its fields is: before, the page has not rendered it.
  const whole = (item) => item !== null && Object.values(item).every((value) => empty(value) || value === false) ? null : item;
  return spec.items === null ? whole(fieldsOf(document, spec.fields)) : listOf(document, spec, true);
}
