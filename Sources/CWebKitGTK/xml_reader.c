/* CWebKitGTK: XML files read as a stream with libxml2's SAX parser. */
#include "CWebKitGTK.h"

#include <glib.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

typedef struct {
    xmlParserCtxtPtr parser;
    WKXMLElementCallback callback;
    void *context;
    unsigned max_text;
    unsigned depth;
    GString *text;
    bool stopped;
    unsigned line;
    char *message;
} Reading;

static void on_start(void *data, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int namespaces,
                     const xmlChar **namespace_list, int attributes, int defaulted, const xmlChar **attribute_list) {
    Reading *reading = data;
    reading->depth++;
    g_string_truncate(reading->text, 0);
}

static void on_end(void *data, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
    Reading *reading = data;
    if (reading->depth == 0)
        return;
    reading->depth--;
    if (!reading->stopped && !reading->callback(reading->context, reading->depth, (const char *)name, reading->text->str,
                                                (unsigned long long)xmlByteConsumed(reading->parser))) {
        reading->stopped = true;
        xmlStopParser(reading->parser);
    }
    g_string_truncate(reading->text, 0);
}

static void on_text(void *data, const xmlChar *text, int length) {
    Reading *reading = data;
    if (reading->text->len < reading->max_text)
        g_string_append_len(reading->text, (const char *)text, MIN((gsize)length, reading->max_text - reading->text->len));
}

static void on_error(void *data, xmlErrorPtr error) {
    Reading *reading = data;
    if (reading->stopped || reading->message || !error || error->level < XML_ERR_ERROR)
        return;
    reading->line = error->line > 0 ? (unsigned)error->line : 0;
    reading->message = g_strstrip(g_strdup(error->message ? error->message : "not well-formed XML"));
}

bool wk_xml_read_elements(const char *path, unsigned max_text, WKXMLElementCallback callback, void *context,
                          unsigned *line, char **message) {
    *line = 0;
    *message = NULL;
    xmlInitParser();
    xmlParserCtxtPtr parser = xmlCreateFileParserCtxt(path);
    if (!parser) {
        *message = g_strdup("the file cannot be opened");
        return false;
    }
    /* Past the faults libxml2 can recover from; no network, and no entity or DTD loaded (no handler asks for one). */
    xmlCtxtUseOptions(parser, XML_PARSE_RECOVER | XML_PARSE_NONET);
    xmlSAXHandler handler = {0};
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = on_start;
    handler.endElementNs = on_end;
    handler.characters = on_text;
    handler.cdataBlock = on_text;
    handler.serror = on_error;
    Reading reading = {parser, callback, context, max_text, 0, g_string_new(NULL), false, 0, NULL};
    xmlSAXHandlerPtr own = parser->sax;
    parser->sax = &handler;
    parser->userData = &reading;
    xmlParseDocument(parser);
    parser->sax = own;
    parser->userData = parser;
    xmlFreeParserCtxt(parser);
    g_string_free(reading.text, TRUE);
    if (!reading.message)
        return true;
    *line = reading.line;
    *message = reading.message;
    return false;
}
