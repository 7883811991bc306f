//! The screen: mounts the components in a tui-realm application and lays them out.

use std::sync::Arc;

use ask_engine::ViewModel;
use tuirealm::application::Application;
use tuirealm::event::NoUserEvent;
use tuirealm::listener::EventListenerCfg;
use tuirealm::props::{AttrValue, Attribute, PropPayload};
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;

use crate::components::{CONFIG_PATH, Footer, Header, Main, Pane, Settings};
use crate::draw::{self, MIN_HEIGHT, MIN_WIDTH};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Id {
    Header,
    Main,
    Footer,
    Settings,
}

const IDS: [Id; 4] = [Id::Header, Id::Main, Id::Footer, Id::Settings];

/// The mounted components. Build one per flow and draw every frame through it.
pub struct Screen {
    app: Application<Id, (), NoUserEvent>,
}

impl Screen {
    /// Mounts the components; `config_path` is shown in the settings overlay.
    pub fn new(config_path: Option<&str>) -> Screen {
        // No ports: input is read at the terminal edge, so no listener thread is started.
        let mut app = Application::init(EventListenerCfg::default());
        let _ = app.mount(Id::Header, Box::new(Pane::<Header>::default()), Vec::new());
        let _ = app.mount(Id::Main, Box::new(Pane::<Main>::default()), Vec::new());
        let _ = app.mount(Id::Footer, Box::new(Pane::<Footer>::default()), Vec::new());
        let _ = app.mount(Id::Settings, Box::new(Pane::<Settings>::default()), Vec::new());
        if let Some(path) = config_path {
            let _ = app.attr(&Id::Settings, CONFIG_PATH, AttrValue::String(path.to_owned()));
        }
        Screen { app }
    }

    /// Draws the whole screen for `view`.
    pub fn draw(&mut self, frame: &mut Frame, view: &Arc<ViewModel>) {
        let area = frame.area();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return draw::too_small(frame, area);
        }
        for id in IDS {
            let payload = AttrValue::Payload(PropPayload::Any(Box::new(Arc::clone(view))));
            let _ = self.app.attr(&id, Attribute::Content, payload);
        }
        if view.settings_only {
            self.app.view(&Id::Settings, frame, area);
            return;
        }
        let header_h = draw::header::height(view);
        let footer_h = (draw::footer::lines(view, area.width as usize).len() as u16).min(area.height / 3);
        let body_y = area.y + header_h + 1;
        let body_h = area.height.saturating_sub(header_h + 1 + footer_h + 1);
        let header = Rect { height: header_h, ..area };
        let body = Rect { y: body_y, height: body_h, ..area };
        let footer = Rect { y: area.y + area.height - footer_h, height: footer_h, ..area };
        self.app.view(&Id::Header, frame, header);
        self.app.view(&Id::Main, frame, body);
        self.app.view(&Id::Footer, frame, footer);
        self.app.view(&Id::Settings, frame, area);
    }
}
