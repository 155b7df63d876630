import FoundationEssentials

/// Data declared with selectors instead of a script: the items a selector matches, each with named fields read
/// from the elements under it (urlwatch's and changedetection.io's CSS filters, Playwright's locators). Runs in
/// webparse's own script world, with the same waiting as a script; an empty list is an answer like any other
/// (once settled).
public struct Extraction: Sendable, Equatable {
    /// What one field reads.
    public enum Value: Sendable, Equatable {
        /// A value read from the elements `selector` matches.
        case read(Read)
        /// A list of items under the element (nested items and their fields).
        indirect case items(Extraction)
    }

    /// How a value is read.
    public struct Read: Sendable, Equatable {
        /// How the text or attribute is turned into a value.
        public enum Form: String, Sendable, Equatable, CaseIterable {
            /// The text, with runs of white space collapsed and the ends trimmed.
            case text
            /// The first number in the text (`"Chapter 12"` is 12; commas are thousands separators).
            case number
            /// An absolute URL, resolved against the document.
            case url
            /// The element's inner HTML.
            case html
            /// Whether anything matches.
            case bool
        }

        /// A CSS selector relative to the item, `xpath:EXPRESSION` for XPath, or `.` for the item itself.
        public var selector: String
        /// The attribute read instead of the text (`href`, `src` and `action` as absolute URLs); nil for the text.
        public var attribute: String?
        /// How the text or attribute becomes the value.
        public var form: Form
        /// Every match, as a list, instead of the first.
        public var all: Bool

        /// Reads `attribute` (or the text) of what `selector` matches, as `form`, the first match or `all`.
        public init(selector: String, attribute: String? = nil, form: Form = .text, all: Bool = false) {
            self.selector = selector
            self.attribute = attribute
            self.form = form
            self.all = all
        }
    }

    /// One named field.
    public struct Field: Sendable, Equatable {
        /// The field's name in each item.
        public var name: String
        /// What the field reads.
        public var value: Value
        /// An item without this field (no match, or an empty value) is left out of the list.
        public var required: Bool

        /// A field `name` of `value`, required or not.
        public init(name: String, value: Value, required: Bool = false) {
            self.name = name
            self.value = value
            self.required = required
        }
    }

    /// The items' selector (CSS, or `xpath:…`); nil reads the fields of the whole document into one object.
    public var items: String?
    /// The fields of each item, in order.
    public var fields: [Field]

    /// Items matching `items` (nil: one object of the whole document), each with `fields`.
    public init(items: String?, fields: [Field]) {
        self.items = items
        self.fields = fields
    }
}
