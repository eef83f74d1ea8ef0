// Dice box enclosure: a base tray and a lid carrying the roll button and the barbarian track.
//
// Built by `make enclosure` (hardware/enclosure.py), which passes led_count from the firmware's
// pin map (firmware/dicebox/pins.py) and button_d / button_bezel_d from the make command line:
//   make enclosure BUTTON_D=28 BUTTON_BEZEL_D=60
// Units are millimetres. part = "base" | "lid" | "assembly" (the assembly is only for pictures).

part = "assembly";

// ---- parameters ------------------------------------------------------------------------------
led_count = 8;            // LEDs on the strip: track spaces + 1 attack LED (pins.LED_COUNT)
led_pitch = 1000 / 60;    // a 60 LEDs/m WS2812B strip: 16.67 mm between LEDs
strip_w = 10;             // strip width (10 mm for IP30 60/m strips)
button_d = 30;            // mounting hole for the roll button's threaded body
button_bezel_d = 62;      // outside diameter of the button's bezel (clearance on the lid)
button_depth = 42;        // how far the button and its microswitch reach below the lid
wall = 2.4;               // side walls and floor
lid_t = 3;                // lid thickness (≤ the button's maximum panel thickness)
corner_r = 6;             // outside corner radius
fn = 64;                  // circle resolution ($fn); tests use less
// The OLED module (pins.OLED_*), held under a window left of the button by 4 M2 screws into
// posts on the lid. Defaults: a 0.96" SSD1306 module (27 x 27 mm board). For a 1.3" SH1106
// module (35 x 33 mm board): display_win = [31, 17], display_holes = [30.4, 28.5].
// Modules differ by a millimetre or two: measure yours.
display_win = [24, 13];        // the window over the display's active area (w, h)
display_holes = [23.5, 23.8];  // the module's mounting holes, centre to centre (x, y)
display_win_dy = 1.5;          // the glass's centre above the holes' centre (towards the back)
display_post_h = 2.5;          // posts: the module's glass (about 1.5 mm) sits between them

// ---- derived sizes ---------------------------------------------------------------------------
strip_len = led_count * led_pitch;          // the strip cut to led_count LEDs
track_margin = 10;                          // strip end to inner wall
track_y = 14;                               // LED centres from the inner front wall
window = 9;                                 // square window over each track LED
attack_window_d = 12;                       // round window over the attack LED

pico_l = 51;
pico_w = 21;
standoff_h = 5;
usb_overhang = 1.3;                         // the micro-USB socket sticks out past the board

inner_l = max(strip_len + 2 * track_margin, button_bezel_d + 2 * pico_w + 30);
inner_w = track_y + window / 2 + 8 + button_bezel_d + 8;
inner_h = max(button_depth + 4, standoff_h + 20);

outer_l = inner_l + 2 * wall;
outer_w = inner_w + 2 * wall;
base_h = inner_h + wall;                    // the lid sits on top of the walls

button_x = outer_l / 2;
button_y = wall + track_y + window / 2 + 8 + button_bezel_d / 2;

pico_x = wall + usb_overhang + 0.3;         // board edge; socket 0.3 mm from the wall
pico_y = outer_w - wall - 9 - pico_w;       // near the back wall, clear of the corner boss

boss_d = 8;
boss_inset = wall + boss_d / 2 - 0.5;       // boss centre from the outer edges
screw_pilot_d = 2.5;                        // M3 self-tapping screw into the boss
screw_clear_d = 3.4;

display_x = wall + 24;                      // display centre: left of the button's bezel
display_y = button_y;

buzzer_d = 12.2;                            // PS1240-size piezo
buzzer_x = outer_l - wall - 16;
buzzer_y = outer_w - wall - 16;

// LED centre i (0-based) along the track, in lid coordinates.
function led_x(i) = (outer_l - strip_len) / 2 + (i + 0.5) * led_pitch;
led_y = wall + track_y;

echo(str("strip_len=", strip_len, " outer=", outer_l, "x", outer_w, "x", base_h + lid_t));

$fn = fn;

// ---- shapes ----------------------------------------------------------------------------------
module rounded_box(l, w, h, r) {
    hull() for (x = [r, l - r], y = [r, w - r]) translate([x, y, 0]) cylinder(r = r, h = h);
}

module boss_positions() {
    for (x = [boss_inset, outer_l - boss_inset], y = [boss_inset, outer_w - boss_inset])
        translate([x, y, 0]) children();
}

module base() {
    difference() {
        union() {
            difference() {
                rounded_box(outer_l, outer_w, base_h, corner_r);
                translate([wall, wall, wall])
                    rounded_box(inner_l, inner_w, base_h, max(corner_r - wall, 0.5));
            }
            // Screw bosses for the lid, in the corners.
            boss_positions() cylinder(d = boss_d, h = base_h);
            // Standoffs for the Pico (M2 self-tapping), USB end against the left wall.
            translate([pico_x, pico_y, wall - 1]) pico_holes() cylinder(d = 5, h = standoff_h + 1);
        }
        boss_positions() translate([0, 0, wall]) cylinder(d = screw_pilot_d, h = base_h);
        translate([pico_x, pico_y, wall]) pico_holes() cylinder(d = 1.8, h = standoff_h + 1);
        // USB cable opening in the left wall, centred on the Pico's micro-USB socket
        // (its plug sits just above the board: standoff + 1 mm board + 1.5 mm).
        translate([-1, pico_y + pico_w / 2 - 6, wall + standoff_h + 2.5 - 4.5])
            cube([wall + 2, 12, 9]);
    }
}

// The Pico's four 2.1 mm mounting holes: 47 mm x 11.4 mm apart, 2 mm from the USB end.
module pico_holes() {
    for (x = [2, 49], y = [(pico_w - 11.4) / 2, (pico_w + 11.4) / 2])
        translate([x, y, 0]) children();
}

// The lid in print orientation: its top face on the bed (z = 0), ribs pointing up.
// Lid coordinates are mirrored in y so that the assembly's front is the track side.
module lid() {
    difference() {
        union() {
            rounded_box(outer_l, outer_w, lid_t, corner_r);
            // Two rails that hold the strip under the windows.
            for (dy = [-(strip_w / 2 + 0.3) - 1.6, strip_w / 2 + 0.3])
                translate([(outer_l - strip_len) / 2 - 2, lid_y(led_y) + dy, lid_t])
                    cube([strip_len + 4, 1.6, 2.5]);
            // Posts for the display module's M2 screws.
            translate([display_x, lid_y(display_y), lid_t]) display_holes()
                cylinder(d = 4.5, h = display_post_h);
            // A ring that locates the piezo under its sound holes.
            translate([buzzer_x, lid_y(buzzer_y), lid_t])
                difference() {
                    cylinder(d = buzzer_d + 3.2, h = 3);
                    translate([0, 0, -1]) cylinder(d = buzzer_d, h = 5);
                }
        }
        translate([button_x, lid_y(button_y), -1]) cylinder(d = button_d, h = lid_t + 2);
        // Track windows: led_count - 1 squares, then the round attack window.
        for (i = [0:led_count - 2])
            translate([led_x(i) - window / 2, lid_y(led_y) - window / 2, -1])
                cube([window, window, lid_t + 2]);
        translate([led_x(led_count - 1), lid_y(led_y), -1])
            cylinder(d = attack_window_d, h = lid_t + 2);
        // The display window (the module's glass shows through it) and the posts' pilot holes.
        translate([display_x - display_win[0] / 2,
                   lid_y(display_y + display_win_dy) - display_win[1] / 2, -1])
            cube([display_win[0], display_win[1], lid_t + 2]);
        translate([display_x, lid_y(display_y), lid_t]) display_holes()
            cylinder(d = 1.6, h = display_post_h + 1, $fn = 12);
        // Sound holes over the piezo.
        for (a = [0:60:359])
            translate([buzzer_x + 3.5 * cos(a), lid_y(buzzer_y) + 3.5 * sin(a), -1])
                cylinder(d = 1.6, h = lid_t + 2, $fn = 12);
        translate([buzzer_x, lid_y(buzzer_y), -1]) cylinder(d = 1.6, h = lid_t + 2, $fn = 12);
        // Countersunk screw holes over the bosses.
        boss_positions() {
            translate([0, 0, -1]) cylinder(d = screw_clear_d, h = lid_t + 2);
            translate([0, 0, -0.01]) cylinder(d1 = 6.4, d2 = screw_clear_d, h = 1.6);
        }
    }
}

function lid_y(y) = outer_w - y;

module display_holes() {
    for (x = [-1, 1], y = [-1, 1])
        translate([x * display_holes[0] / 2, y * display_holes[1] / 2, 0]) children();
}

// Pictures only: the lid flipped onto the base, raised a little, with the button and LEDs.
module assembly(gap = 30) {
    color("#3a3f47") base();
    translate([0, 0, base_h + gap + lid_t]) mirror([0, 0, 1]) translate([0, outer_w, 0])
        mirror([0, 1, 0]) color("#e8e2d0") lid();
    z_top = base_h + gap + lid_t;
    translate([button_x, button_y, z_top]) {
        color("#c0392b") translate([0, 0, 4]) scale([1, 1, 0.45])
            sphere(d = button_bezel_d - 10);
        color("#222") cylinder(d = button_bezel_d, h = 4);
    }
    // The display under its window: board and glass.
    translate([display_x, display_y, z_top - lid_t - display_post_h]) {
        color("#1b4f72") translate([-display_holes[0] / 2 - 2, -display_holes[1] / 2 - 2, -1.6])
            cube([display_holes[0] + 4, display_holes[1] + 4, 1.6]);
        color("#111") translate([-display_win[0] / 2 - 1.5, display_win_dy - display_win[1] / 2 - 3, 0])
            cube([display_win[0] + 3, display_win[1] + 6, 1.5]);
    }
    for (i = [0:led_count - 1])
        translate([led_x(i), led_y, z_top - lid_t - 0.5])
            color(i == led_count - 1 ? "#ff3b30" : (i < 3 ? "#2e86de" : "#555"))
                cube([5, 5, 1.6], center = true);
}

if (part == "base") base();
else if (part == "lid") lid();
else assembly();
