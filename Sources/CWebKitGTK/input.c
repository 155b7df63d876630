/* CWebKitGTK: input events for a view, made as GDK makes them for a real pointer and keyboard. */
#include "objects.h"

#include <string.h>

static GdkDevice *device(GdkWindow *window, bool keyboard) {
    GdkSeat *seat = gdk_display_get_default_seat(gdk_window_get_display(window));
    return keyboard ? gdk_seat_get_keyboard(seat) : gdk_seat_get_pointer(seat);
}

/* Gives the view the keyboard focus, as a click or a key of a user's would find it. */
static GdkWindow *focus(WKView *view) {
    GtkWidget *widget = GTK_WIDGET(view->web_view);
    gtk_widget_grab_focus(widget);
    return gtk_widget_get_window(widget);
}

static void send(WKView *view, GdkEvent *event) {
    gtk_widget_event(GTK_WIDGET(view->web_view), event);
    gdk_event_free(event);
}

static GdkEvent *pointer_event(GdkWindow *window, GdkEventType type, double x, double y) {
    GdkEvent *event = gdk_event_new(type);
    if (type == GDK_MOTION_NOTIFY) {
        event->motion = (GdkEventMotion){.type = type, .window = g_object_ref(window), .time = GDK_CURRENT_TIME,
                                         .x = x, .y = y, .x_root = x, .y_root = y};
    } else {
        event->button = (GdkEventButton){.type = type, .window = g_object_ref(window), .time = GDK_CURRENT_TIME,
                                         .x = x, .y = y, .x_root = x, .y_root = y, .button = GDK_BUTTON_PRIMARY,
                                         .state = type == GDK_BUTTON_RELEASE ? GDK_BUTTON1_MASK : 0};
    }
    gdk_event_set_device(event, device(window, false));
    return event;
}

void wk_view_click(WKView *view, double x, double y) {
    GdkWindow *window = focus(view);
    if (!window) return;
    send(view, pointer_event(window, GDK_MOTION_NOTIFY, x, y));
    send(view, pointer_event(window, GDK_BUTTON_PRESS, x, y));
    send(view, pointer_event(window, GDK_BUTTON_RELEASE, x, y));
}

static GdkEvent *key_event(GdkWindow *window, GdkEventType type, guint keyval) {
    GdkEvent *event = gdk_event_new(type);
    event->key.window = g_object_ref(window);
    event->key.time = GDK_CURRENT_TIME;
    event->key.keyval = keyval;
    GdkKeymapKey *keys = NULL;
    gint count = 0;
    if (gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(gdk_window_get_display(window)), keyval, &keys,
                                          &count) && count > 0) {
        event->key.hardware_keycode = keys[0].keycode;
        event->key.group = keys[0].group;
    }
    g_free(keys);
    gunichar character = gdk_keyval_to_unicode(keyval);
    if (character) {
        char text[7] = {0};
        g_unichar_to_utf8(character, text);
        event->key.string = g_strdup(text);
        event->key.length = (gint)strlen(text);
    } else {
        event->key.string = g_strdup("");
    }
    gdk_event_set_device(event, device(window, true));
    return event;
}

bool wk_view_press_key(WKView *view, const char *key_name) {
    guint keyval = gdk_keyval_from_name(key_name);
    if (keyval == GDK_KEY_VoidSymbol || keyval == 0) {
        gunichar character = g_utf8_get_char_validated(key_name, -1);
        if (character == (gunichar)-1 || character == (gunichar)-2 || *g_utf8_next_char(key_name) != '\0') return false;
        keyval = gdk_unicode_to_keyval(character);
    }
    GdkWindow *window = focus(view);
    if (!window) return false;
    send(view, key_event(window, GDK_KEY_PRESS, keyval));
    send(view, key_event(window, GDK_KEY_RELEASE, keyval));
    return true;
}
